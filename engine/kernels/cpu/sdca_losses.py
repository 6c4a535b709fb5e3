"""The dual loss updaters of TensorFlow's SDCA (core/kernels/logistic-loss.h, squared-loss.h,
hinge-loss.h, smooth-hinge-loss.h, poisson-loss.h), in double as there: the updated dual, the
dual and primal losses, the primal loss's derivative, the smoothness constant, the label."""

import math
import sys

_DOUBLE_MAX = sys.float_info.max


def _binary_label(label):
    if label == 0.0:
        return -1.0
    if label == 1.0:
        return label
    raise ValueError(f"Only labels of 0.0 or 1.0 are supported right now. Found example with "
                     f"label: {label:g}")


class Logistic:
    smoothness = 4.0
    convert_label = staticmethod(_binary_label)

    @staticmethod
    def _newton_step(x, partitions, label, wx, weight, norm, dual):
        tanhx = math.tanh(x)
        numerator = (-2 * label * x - wx
                     - partitions * norm * weight * (0.5 * (1 + tanhx) / label - dual))
        denominator = -2 * label - partitions * norm * weight * (1 - tanhx * tanhx) * 0.5 / label
        return x - numerator / denominator

    def updated_dual(self, partitions, label, weight, dual, wx, norm):
        x = 0.0
        for _ in range(10):
            x = self._newton_step(x, partitions, label, wx, weight, norm, dual)
        return 0.5 * (1 + math.tanh(x)) / label

    @staticmethod
    def dual_loss(dual, label, weight):
        ay = dual * label
        log_ay = math.log(ay) if ay > 0 else 0.0
        one_minus_ay = 1 - ay
        log_one_minus_ay = math.log(one_minus_ay) if one_minus_ay > 0 else 0.0
        return (ay * log_ay + one_minus_ay * log_one_minus_ay) * weight

    @staticmethod
    def primal_loss(wx, label, weight):
        y_wx = label * wx
        if y_wx > 0:
            return math.log1p(math.exp(-y_wx)) * weight
        return (math.log1p(math.exp(y_wx)) - y_wx) * weight

    @staticmethod
    def primal_derivative(wx, label, weight):
        if label * wx > 0:
            inverse_exp = math.exp(-label * wx) / (1 + math.exp(-label * wx))
        else:
            inverse_exp = 1 / (1 + math.exp(label * wx))
        return -inverse_exp * label * weight


class Squared:
    smoothness = 1.0

    @staticmethod
    def convert_label(label):
        return label

    @staticmethod
    def updated_dual(partitions, label, weight, dual, wx, norm):
        return dual + (label - dual - wx) / (1 + partitions * norm * weight)

    @staticmethod
    def dual_loss(dual, label, weight):
        return dual * (0.5 * dual - label) * weight

    @staticmethod
    def primal_loss(wx, label, weight):
        error = wx - label
        return error * error * weight * 0.5

    @staticmethod
    def primal_derivative(wx, label, weight):
        return (wx - label) * weight


class Hinge:
    smoothness = 0.0
    convert_label = staticmethod(_binary_label)

    @staticmethod
    def updated_dual(partitions, label, weight, dual, wx, norm):
        candidate = dual + (label - wx) / (partitions * weight * norm)
        if label * candidate < 0:
            return 0.0
        if label * candidate > 1.0:
            return label
        return candidate

    @staticmethod
    def dual_loss(dual, label, weight):
        y_alpha = dual * label
        if y_alpha < 0 or y_alpha > 1.0:
            return _DOUBLE_MAX
        return -y_alpha * weight

    @staticmethod
    def primal_loss(wx, label, weight):
        return max(0.0, 1 - label * wx) * weight

    @staticmethod
    def primal_derivative(wx, label, weight):
        return -label * weight if label * wx < 1 else 0.0


class SmoothHinge:
    gamma = smoothness = 1.0
    convert_label = staticmethod(_binary_label)

    def updated_dual(self, partitions, label, weight, dual, wx, norm):
        candidate = dual + (label - wx - self.gamma * dual) / (
            partitions * weight * norm + self.gamma)
        if label * candidate < 0:
            return 0.0
        if label * candidate > 1.0:
            return label
        return candidate

    def dual_loss(self, dual, label, weight):
        y_alpha = dual * label
        if y_alpha < 0 or y_alpha > 1.0:
            return _DOUBLE_MAX
        return (-y_alpha + 0.5 * self.gamma * dual * dual) * weight

    def primal_loss(self, wx, label, weight):
        y_wx = label * wx
        if y_wx >= 1:
            return 0.0
        if y_wx <= 1 - self.gamma:
            return (1 - y_wx - self.gamma / 2) * weight
        return (1 - y_wx) * (1 - y_wx) * weight * 0.5 / self.gamma

    def primal_derivative(self, wx, label, weight):
        if label * wx >= 1:
            return 0.0
        if label * wx <= 1 - self.gamma:
            return -label
        return (wx - label) / self.gamma


class Poisson:
    smoothness = 1.0

    @staticmethod
    def convert_label(label):
        if label < 0.0:
            raise ValueError("Only non-negative labels can be used with the Poisson log loss. "
                             f"Found example with label: {label:g}")
        return label

    @staticmethod
    def _newton_step(x, partitions, label, wx, weight, norm, dual):
        expx = math.exp(x)
        numerator = x - wx - partitions * norm * weight * (label - dual - expx)
        denominator = 1 + partitions * norm * weight * expx
        return x - numerator / denominator

    def updated_dual(self, partitions, label, weight, dual, wx, norm):
        y_minus_a = label - dual
        x = math.log(y_minus_a) if y_minus_a > 0 else 0.0
        for _ in range(10):
            x = self._newton_step(x, partitions, label, wx, weight, norm, dual)
        return label - math.exp(x)

    @staticmethod
    def dual_loss(dual, label, weight):
        y_minus_a = label - dual
        if y_minus_a == 0.0:
            return 0.0
        if y_minus_a < 0.0:
            return _DOUBLE_MAX
        return y_minus_a * (math.log(y_minus_a) - 1) * weight

    @staticmethod
    def primal_loss(wx, label, weight):
        return (math.exp(wx) - wx * label) * weight

    @staticmethod
    def primal_derivative(wx, label, weight):
        return (math.exp(wx) - label) * weight


UPDATERS = {"logistic_loss": Logistic(), "squared_loss": Squared(), "hinge_loss": Hinge(),
            "smooth_hinge_loss": SmoothHinge(), "poisson_loss": Poisson()}
