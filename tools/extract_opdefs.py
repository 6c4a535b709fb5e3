"""Write engine/framework/op_defs.pbtxt: TensorFlow's OpDefs for every op the engine knows.

Run with the TensorFlow venv: `.venv-tf/bin/python tools/extract_opdefs.py`. The OpDefs are
TensorFlow's registered signatures (inputs, outputs, attrs with defaults and allowed values,
is_stateful, ref args), so op_def prints as TensorFlow prints it and nodes validate the same.
To teach the engine a new op, add its name to ENGINE_OPS and rerun.
"""

import sys

ENGINE_OPS = """
Add AddV2 AddN Sub Mul RealDiv Div DivNoNan FloorDiv FloorMod TruncateDiv TruncateMod Mod
Maximum Minimum Neg Abs Square Sqrt Rsqrt Exp Expm1 Log Log1p Pow Tanh Sigmoid Relu Relu6 Elu
Selu LeakyRelu Softplus Softsign Sign Round Floor Ceil Reciprocal Inv Sin Cos Tan Asin Acos
Atan Atan2 Sinh Cosh Erf Erfc SquaredDifference IsNan IsInf IsFinite BiasAdd BiasAddV1
Less LessEqual Greater GreaterEqual Equal NotEqual LogicalAnd LogicalOr LogicalNot Select
SelectV2 Sum Mean Max Min Prod All Any ArgMax ArgMin MatMul BatchMatMul BatchMatMulV2
BatchMatMulV3 Softmax LogSoftmax Conv2D MaxPool MaxPoolV2 AvgPool Shape ShapeN Size Rank
Reshape Transpose Concat ConcatV2 ConcatOffset Pack Unpack Split SplitV Slice StridedSlice
StridedSliceGrad Squeeze ExpandDims Tile Pad PadV2 MirrorPad Fill ZerosLike OnesLike Range
Gather GatherV2 GatherNd OneHot Cast Identity IdentityN StopGradient PreventGradient
Placeholder PlaceholderV2 PlaceholderWithDefault Const NoOp Where Reverse ReverseV2
BroadcastTo BroadcastArgs BroadcastGradientArgs Cumsum Cumprod ClipByValue Bitcast
InvertPermutation UnsortedSegmentSum TopKV2 L2Loss CheckNumerics Print PrintV2 StringFormat
RandomUniform RandomUniformInt RandomStandardNormal TruncatedNormal RandomShuffle Multinomial
Variable VariableV2 Assign AssignAdd AssignSub IsVariableInitialized TemporaryVariable
DestroyTemporaryVariable VarHandleOp ReadVariableOp AssignVariableOp AssignAddVariableOp
AssignSubVariableOp VarIsInitializedOp DestroyResourceOp ResourceGather
Switch RefSwitch Merge RefMerge Enter RefEnter Exit RefExit NextIteration RefNextIteration
LoopCond ControlTrigger Abort If StatelessIf While StatelessWhile PartitionedCall
StatefulPartitionedCall _Arg _Retval _ArrayToList _ListToArray SymbolicGradient Case
StatelessCase
ReluGrad Relu6Grad EluGrad SeluGrad LeakyReluGrad SoftplusGrad SoftsignGrad TanhGrad
SigmoidGrad SqrtGrad RsqrtGrad ReciprocalGrad BiasAddGrad Conv2DBackpropInput
Conv2DBackpropFilter MaxPoolGrad MaxPoolGradV2 MaxPoolGradGrad MaxPoolGradGradV2 MirrorPadGrad
AvgPoolGrad SoftmaxCrossEntropyWithLogits
SparseSoftmaxCrossEntropyWithLogits InvertPermutation
ApplyGradientDescent ApplyMomentum ApplyAdam ApplyRMSProp ApplyAdagrad
ResourceApplyGradientDescent ResourceApplyMomentum ResourceApplyAdam ResourceApplyRMSProp
ResourceApplyAdagrad
_Send _Recv _HostSend _HostRecv
SaveV2 RestoreV2 MergeV2Checkpoints ShardedFilename StringJoin StaticRegexFullMatch
ScalarSummary HistogramSummary MergeSummary
ImageSummary AudioSummaryV2 TensorSummaryV2
StackV2 StackPushV2 StackPopV2 StackCloseV2 Assert
DynamicStitch ParallelDynamicStitch DynamicPartition ListDiff ApplyCenteredRMSProp ResourceApplyCenteredRMSProp
Snapshot EnsureShape InvGrad InTopKV2
PyFunc PyFuncStateless EagerPyFunc MatrixInverse MatrixDeterminant Cholesky Einsum Diag DiagPart
MatrixDiagV3 MatrixDiagPartV3 MatrixSetDiagV3 MatrixBandPart SegmentSum SegmentMean SegmentMax
SegmentMin SegmentProd UnsortedSegmentMax UnsortedSegmentMin UnsortedSegmentProd
DenseBincount ScatterNd FIFOQueueV2 RandomShuffleQueueV2 QueueEnqueueV2 QueueEnqueueManyV2
QueueDequeueV2 QueueDequeueManyV2 QueueDequeueUpToV2 QueueCloseV2 QueueSizeV2 QueueIsClosedV2
CountUpTo ApplyAdadelta ResourceApplyAdadelta ApplyProximalGradientDescent
ResourceApplyProximalGradientDescent ApplyFtrl ResourceApplyFtrl ApplyFtrlV2 ResourceApplyFtrlV2
DepthwiseConv2dNative DepthwiseConv2dNativeBackpropInput DepthwiseConv2dNativeBackpropFilter
LRN LRNGrad ParseExampleV2 SpaceToBatchND BatchToSpaceND
TFRecordReaderV2 TextLineReaderV2 ReaderReadV2 ReaderReadUpToV2 ReaderNumRecordsProducedV2
ReaderNumWorkUnitsCompletedV2 ReaderResetV2 DecodeRaw FixedLengthRecordReaderV2 WholeFileReaderV2
ReadFile WriteFile DecodeCSV
EmptyTensorList TensorListReserve TensorListSetItem TensorListGetItem TensorListStack
TensorListFromTensor TensorListLength TensorListPushBack TensorListPopBack TensorListElementShape
TensorListGather TensorListScatter TensorListScatterV2 TensorListScatterIntoExistingList
TensorListConcat TensorListConcatV2 TensorListSplit TensorListResize
HashTableV2 MutableHashTableV2 LookupTableImportV2 LookupTableFindV2 LookupTableInsertV2
LookupTableSizeV2 LookupTableExportV2 LookupTableRemoveV2 InitializeTableV2
InitializeTableFromTextFileV2 DisableCopyOnRead VariableShape
SelfAdjointEigV2 Svd Qr MatrixSolve MatrixTriangularSolve MatrixSolveLs LogMatrixDeterminant Cross
_FusedMatMul _FusedConv2D _SwitchN
ResourceConditionalAccumulator ResourceAccumulatorApplyGradient ResourceAccumulatorTakeGradient
ResourceAccumulatorSetGlobalStep ResourceAccumulatorNumAccumulated
Xlogy Xdivy Xlog1py MulNoNan Lgamma Digamma Polygamma Zeta Igamma Igammac IgammaGradA Betainc
BesselI0e BesselI1e Roll LowerBound UpperBound HistogramFixedWidth UniqueWithCounts
SparseTensorDenseMatMul RandomGamma RandomGammaGrad RandomPoissonV2
StringSplit StringSplitV2 Substr AsString StringToNumber ReduceJoin StringLength StringLower StringUpper
StringStrip RegexReplace StaticRegexReplace RegexFullMatch StringToHashBucketFast
StringToHashBucketStrong StringToHashBucket Bucketize ScatterUpdate ScatterMul ScatterDiv ScatterMin
ScatterMax ScatterNdUpdate ScatterNdAdd ScatterNdSub TensorScatterUpdate TensorScatterAdd
TensorScatterSub NonMaxSuppressionV3 UnravelIndex Erfinv Ndtri Lu CropAndResize
CropAndResizeGradImage CropAndResizeGradBoxes
SparseFillEmptyRows SparseFillEmptyRowsGrad SparseReshape SparseSegmentSum SparseSegmentMean
SparseSegmentSqrtN SparseSegmentSumWithNumSegments SparseSegmentMeanWithNumSegments
SparseSegmentSqrtNWithNumSegments SparseSegmentSumGrad SparseSegmentMeanGrad SparseSegmentSqrtNGrad
SparseSegmentSumGradV2 SparseSegmentMeanGradV2 SparseSegmentSqrtNGradV2 SparseCross SparseCrossV2
SparseReorder SparseSlice SparseSliceGrad
DenseToDenseSetOperation DenseToSparseSetOperation SparseToSparseSetOperation SetSize
ResizeBilinear ResizeBilinearGrad ResizeNearestNeighbor ResizeNearestNeighborGrad ResizeBicubic
ResizeBicubicGrad AdjustContrastv2 AdjustSaturation AdjustHue DepthToSpace SpaceToDepth
Conv3D Conv3DBackpropInputV2 Conv3DBackpropFilterV2 MaxPool3D MaxPool3DGrad MaxPool3DGradGrad
AvgPool3D AvgPool3DGrad ResizeArea RGBToHSV HSVToRGB
""".split()
# signal-fft: the FFT family, the WAV ops
ENGINE_OPS += """
FFT IFFT FFT2D IFFT2D FFT3D IFFT3D RFFT IRFFT RFFT2D IRFFT2D RFFT3D IRFFT3D
DecodeWav EncodeWav
""".split()
# Math, complex numbers and bitwise ops (tf.math, tf.complex, tf.bitwise).
ENGINE_OPS += """
Acosh Asinh Atanh Rint EuclideanNorm CumulativeLogsumexp NextAfter Complex Real Imag Conj Angle
ComplexAbs BitwiseAnd BitwiseOr BitwiseXor Invert LeftShift RightShift BesselI0 BesselI1 BesselK0
BesselK0e BesselK1 BesselK1e BesselJ0 BesselJ1 BesselY0 BesselY1 Dawsn Expint FresnelCos FresnelSin
Spence
""".split()

# tf.io's encodings and tf.strings' Unicode ops (PrintV2 and StringFormat are above).
ENGINE_OPS += """
EncodeBase64 DecodeBase64 DecodeCompressed SerializeTensor ParseTensor DecodeJSONExample
UnicodeScript UnicodeTranscode UnicodeEncode UnsortedSegmentJoin StringNGrams UnicodeDecode
UnicodeDecodeWithOffsets
""".split()

# Stateless random ops (tf.random.stateless_*, fold_in, split, experimental.stateless_shuffle,
# index_shuffle); the bitwise ops alg="philox" scrambles a seed with are math's, above.
ENGINE_OPS += """
StatelessRandomGetKeyCounter StatelessRandomGetKeyCounterAlg StatelessRandomGetAlg
StatelessRandomUniform StatelessRandomNormal StatelessTruncatedNormal StatelessRandomUniformInt
StatelessRandomUniformFullInt StatelessRandomUniformV2 StatelessRandomNormalV2
StatelessTruncatedNormalV2 StatelessRandomUniformIntV2 StatelessRandomUniformFullIntV2
StatelessMultinomial StatelessRandomBinomial StatelessRandomGammaV2 StatelessRandomGammaV3
StatelessRandomPoisson StatelessShuffle RandomIndexShuffle StatelessParameterizedTruncatedNormal
""".split()

# tf.sparse arithmetic, serialization and tf.sparse_matmul (sparse-metrics)
ENGINE_OPS += """
SparseAdd SparseAddGrad SparseTensorDenseAdd SparseDenseCwiseAdd SparseDenseCwiseMul
SparseDenseCwiseDiv SparseConcat SparseSparseMaximum SparseSparseMinimum SparseReduceSum
SparseReduceSumSparse SparseReduceMax SparseReduceMaxSparse SparseSoftmax SparseSplit
SerializeSparse SerializeManySparse DeserializeManySparse SparseMatMul DenseCountSparseOutput
SparseCountSparseOutput
""".split()
# tf.nn CTC, convolution/pool wrappers, samplers; tf.train leftovers (branch nn-train)
ENGINE_OPS += """
CTCLoss CTCGreedyDecoder CTCBeamSearchDecoder
MaxPoolWithArgmax MaxPoolGradWithArgmax MaxPoolGradGradWithArgmax
Dilation2D Dilation2DBackpropInput Dilation2DBackpropFilter
AllCandidateSampler FixedUnigramCandidateSampler LearnedUnigramCandidateSampler
ApplyProximalAdagrad SparseApplyProximalAdagrad ApplyAdagradDA SparseApplyAdagradDA
ResourceApplyProximalAdagrad ResourceSparseApplyProximalAdagrad ResourceApplyAdagradDA
ResourceSparseApplyAdagradDA
FractionalMaxPool FractionalMaxPoolGrad FractionalAvgPool FractionalAvgPoolGrad
""".split()
# Image codecs and the image ops that came with them (branch image-codecs).
ENGINE_OPS += """
DecodeJpeg DecodeAndCropJpeg DecodePng DecodeGif DecodeBmp DecodeImage ExtractJpegShape
EncodeJpeg EncodeJpegVariableQuality EncodePng
NonMaxSuppressionV4 NonMaxSuppressionV5 NonMaxSuppressionWithOverlaps DrawBoundingBoxes
DrawBoundingBoxesV2 SampleDistortedBoundingBoxV2 ExtractGlimpse CombinedNonMaxSuppression
""".split()

# Array and shape ops, small linalg (branch array-ops).
ENGINE_OPS += """
ParallelConcat GuaranteeConst Fingerprint Timestamp ExtractImagePatches ExtractVolumePatches
TensorScatterMax TensorScatterMin EditDistance MatrixSquareRoot MatrixLogarithm
TridiagonalMatMul TridiagonalSolve ResourceCountUpTo
""".split()
# Padding and priority queues, SequenceExample parsing, FixedLengthRecordDataset (branch
# queues-sequences).
ENGINE_OPS += """
PaddingFIFOQueueV2 PriorityQueueV2 ParseSequenceExampleV2 FixedLengthRecordDatasetV2
""".split()

# Fake quantization and the quantize ops (branch quantization).
ENGINE_OPS += """
FakeQuantWithMinMaxArgs FakeQuantWithMinMaxArgsGradient FakeQuantWithMinMaxVars
FakeQuantWithMinMaxVarsGradient FakeQuantWithMinMaxVarsPerChannel
FakeQuantWithMinMaxVarsPerChannelGradient
QuantizeAndDequantizeV2 QuantizeAndDequantizeV4 QuantizeAndDequantizeV4Grad
QuantizeV2 Dequantize QuantizedConcat
""".split()
# tf.io.matching_files and tf.train.match_filenames_once (branch train-nn-misc).
ENGINE_OPS += """
MatchingFiles
""".split()
# tf.data.Options, session handles, the sparse conditional accumulator,
# tf.IdentityReader, tf.user_ops.my_fact, enable_check_numerics, check_pinned and
# nondifferentiable_batch_function (branch specs-session-misc).
ENGINE_OPS += """
OptionsDataset GetSessionHandle GetSessionHandleV2 GetSessionTensor DeleteSessionTensor
SparseConditionalAccumulator
SparseAccumulatorApplyGradient SparseAccumulatorTakeGradient AccumulatorNumAccumulated
AccumulatorSetGlobalStep IdentityReaderV2 Fact CheckNumericsV2 CheckPinned BatchFunction
""".split()

# WebP, padded NMS, box proposals, protos, quantized conv/pools, Conv (branch image-io-quant).
ENGINE_OPS += """
Conv Conv2DBackpropFilterV2 Conv2DBackpropInputV2
QuantizedConv2D QuantizedAvgPool QuantizedMaxPool QuantizedReluX
DecodeWebP DecodeProtoV2 EncodeProto GenerateBoundingBoxProposals
""".split()

# Vocabulary remapping of checkpointed matrices for tf.train.VocabInfo (branch checkpoint-v2).
ENGINE_OPS += """
GenerateVocabRemapping LoadAndRemapMatrix
""".split()

# The conjugate transpose of complex matrices: tf.linalg.LinearOperator's adjoints (branch
# linalg-operators).
ENGINE_OPS += """
ConjugateTranspose
""".split()

# tf.random.Generator, index shuffle, Sobol, approximate top-k, N-d FFTs, SDCA
# (branch random-gen-math).
ENGINE_OPS += """
ApproxTopK FFTND IFFTND RFFTND IRFFTND
RngReadAndSkip RngSkip StatefulRandomBinomial StatefulUniform StatefulUniformInt
StatefulUniformFullInt StatefulStandardNormalV2 StatefulTruncatedNormal NonDeterministicInts
SdcaFprint SdcaShrinkL1 SdcaOptimizer SdcaOptimizerV2 SobolSample
""".split()

# RaggedTensor, tf.ragged and the ragged results of the string ops (branch ragged).
ENGINE_OPS += """
RaggedTensorToTensor RaggedTensorToSparse RaggedRange RaggedGather RaggedFillEmptyRows
RaggedFillEmptyRowsGrad RaggedCross
""".split()

# Ops TF2 SavedModels run: Keras preprocessing counts, tf.image.resize with antialias,
# tf.linalg.eig (branch tf2-models-wave); Keras's RandomRotation/Zoom/Translation/Shear
# (branch tf2-sweep2).
ENGINE_OPS += """
RaggedBincount ScaleAndTranslate ScaleAndTranslateGrad Eig
ImageProjectiveTransformV2 ImageProjectiveTransformV3
""".split()


# tf.data.Iterator.from_string_handle, the feedable iterator (branch programs-wave3).
ENGINE_OPS += """
IteratorFromStringHandleV2
""".split()


# tf.CriticalSection's mutex: the resource, its lock and the lock's consumer (branch
# critical-section).
ENGINE_OPS += """
MutexV2 MutexLock ConsumeMutexLock
""".split()


def main(out_path="engine/framework/op_defs.pbtxt"):
    import tensorflow  # noqa: F401  (registers the ops)
    from google.protobuf import text_format
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.framework import op_def_registry

    op_list = op_def_pb2.OpList()
    missing = []
    for name in sorted(set(ENGINE_OPS)):
        op_def = op_def_registry.get(name)
        if op_def is None:
            missing.append(name)
            continue
        op = op_list.op.add()
        op.CopyFrom(op_def)
        op.ClearField("summary")
        op.ClearField("description")
        for arg in list(op.input_arg) + list(op.output_arg):
            arg.ClearField("description")
        for attr in op.attr:
            attr.ClearField("description")
    with open(out_path, "w") as out:
        out.write("# TensorFlow's OpDefs for the ops the engine knows; made by tools/extract_opdefs.py.\n")
        out.write(text_format.MessageToString(op_list))
    print(f"{out_path}: {len(op_list.op)} ops" + (f"; not registered in TensorFlow: {missing}" if missing else ""))


if __name__ == "__main__":
    main(*sys.argv[1:])
