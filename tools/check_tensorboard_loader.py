"""Read event files through TensorBoard's own loaders: does TensorBoard see what we wrote?

Run with a Python that has the tensorboard package (the TensorFlow venv, after
`.venv-tf/bin/pip install tensorboard`):

    .venv/bin/python -c "..."   # write a log directory with engine's FileWriter, then
    .venv-tf/bin/python tools/check_tensorboard_loader.py LOGDIR [--json]

For every event file: each record through `event_file_loader.EventFileLoader` (TensorBoard's
TFRecord reader, CRCs checked), then the directory through `EventAccumulator`: the graph's
node count, the run metadata tags (each parsed as a RunMetadata), the scalar tags with
their (step, value) pairs, and the histogram, image, audio and tensor (text) tags with what
TensorBoard decoded of each. Prints a JSON summary; exits 1 when TensorBoard finds no graph.
"""

import argparse
import glob
import json
import os
import sys


def check(logdir):
    from tensorboard.backend.event_processing import event_accumulator, event_file_loader

    files = sorted(glob.glob(os.path.join(logdir, "*tfevents*")))
    kinds = {}
    for path in files:
        for event in event_file_loader.EventFileLoader(path).Load():
            kind = event.WhichOneof("what")
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind == "file_version":
                kinds["file_version_text"] = event.file_version
    accumulator = event_accumulator.EventAccumulator(logdir, size_guidance={
        kind: 0 for kind in (event_accumulator.SCALARS, event_accumulator.HISTOGRAMS,
                             event_accumulator.IMAGES, event_accumulator.AUDIO,
                             event_accumulator.TENSORS)})
    accumulator.Reload()
    tags = accumulator.Tags()
    graph = accumulator.Graph() if tags.get("graph") else None
    runs = {}
    for tag in tags.get("run_metadata", []):
        metadata = accumulator.RunMetadata(tag)
        runs[tag] = {"devices": [d.device for d in metadata.step_stats.dev_stats],
                     "nodes": sum(len(d.node_stats) for d in metadata.step_stats.dev_stats)}
    scalars = {tag: [(e.step, e.value) for e in accumulator.Scalars(tag)]
               for tag in tags.get("scalars", [])}
    histograms = {tag: [(e.step, e.histogram_value.num, len(e.histogram_value.bucket))
                        for e in accumulator.Histograms(tag)]
                  for tag in tags.get("histograms", [])}
    images = {tag: [(e.step, e.width, e.height, len(e.encoded_image_string))
                    for e in accumulator.Images(tag)] for tag in tags.get("images", [])}
    audio = {tag: [(e.step, e.content_type, e.length_frames, e.sample_rate)
                   for e in accumulator.Audio(tag)] for tag in tags.get("audio", [])}
    tensors = {tag: [(e.step, e.tensor_proto.dtype, len(e.tensor_proto.string_val))
                     for e in accumulator.Tensors(tag)] for tag in tags.get("tensors", [])}
    return {"files": [os.path.basename(f) for f in files], "events": kinds,
            "histograms": histograms, "images": images, "audio": audio, "tensors": tensors,
            "graph_nodes": len(graph.node) if graph is not None else None,
            "meta_graph": bool(tags.get("meta_graph")), "run_metadata": runs,
            "scalars": scalars}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logdir")
    args = parser.parse_args(argv)
    result = check(args.logdir)
    print(json.dumps(result, indent=1, sort_keys=True))
    return 0 if result["graph_nodes"] else 1


if __name__ == "__main__":
    sys.exit(main())
