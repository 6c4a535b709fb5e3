"""Write engine/ops/program_op_defs.pbtxt: TensorFlow's OpDefs of the ops tf.layers, the
sampled losses, the recurrent nets and tf.data need beyond engine/framework/op_defs.pbtxt.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/extract_program_opdefs.py`.
engine/framework/op_registry.py loads them with engine/framework/op_defs.pbtxt (an op is in one of
the two files).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import extract_opdefs  # noqa: E402

PROGRAM_OPS = """
FusedBatchNormV3 FusedBatchNormGradV3
LogUniformCandidateSampler UniformCandidateSampler ComputeAccidentalHits InTopK SparseToDense
ScatterSub ScatterAdd ReverseSequence
TensorArrayV3 TensorArrayReadV3 TensorArrayWriteV3 TensorArrayGatherV3 TensorArrayScatterV3
TensorArraySizeV3 TensorArrayCloseV3 TensorArrayGradV3 TensorArrayConcatV3 TensorArraySplitV3
SparseApplyMomentum ResourceSparseApplyMomentum SparseApplyRMSProp ResourceSparseApplyRMSProp
SparseApplyCenteredRMSProp ResourceSparseApplyCenteredRMSProp SparseApplyAdagrad
ResourceSparseApplyAdagrad Unique ResourceScatterAdd
TensorSliceDataset TensorDataset RangeDataset MapDataset ParallelMapDatasetV2 BatchDatasetV2
ShuffleDataset RepeatDataset TakeDataset SkipDataset PrefetchDataset ZipDataset FlatMapDataset
TextLineDataset TFRecordDataset OneShotIterator IteratorV2 MakeIterator IteratorGetNext
IteratorToStringHandle FilterDataset CacheDataset PaddedBatchDatasetV2 InterleaveDataset
ConcatenateDataset GeneratorDataset
""".split()

if __name__ == "__main__":
    extract_opdefs.ENGINE_OPS = PROGRAM_OPS
    extract_opdefs.main("engine/ops/program_op_defs.pbtxt")
