"""Names and values that read as Rich/Textual markup (`[/]`, `[bold red]x`) are shown as
written: a checkpoint variable named `[/]` took the checkpoint screen down with MarkupError,
a string constant holding `[/]` the Tensor tab, a file path the `cannot open` notification;
`[bold]` drew its text bold; a raw ESC in a variable's name reached the screen."""

import numpy as np

from engine.checkpoint.bundle import BundleWriter
from engine.framework import tensor_util
from engine.proto import graph_pb2, types_pb2
from views.tui import InspectorApp

from tests.views.tui_conftest import run_async, screen_text, settle

NAMES = ["[/]", "[bold red]x\x1b[2J", "v\n\u202eevil"]


def checkpoint(tmp_path):
    writer = BundleWriter(tmp_path / "ckpt")
    for number, name in enumerate(NAMES):
        writer.add(name, np.arange(number + 1, dtype=np.float32), types_pb2.DT_FLOAT)
    writer.finish()
    return str(tmp_path / "ckpt.index")


def string_constant_graph(tmp_path):
    graph = graph_pb2.GraphDef()
    node = graph.node.add(name="[/]", op="Const", device="[/]dev")
    node.attr["dtype"].type = types_pb2.DT_STRING
    node.attr["value"].tensor.CopyFrom(tensor_util.make_tensor_proto(
        np.array([b"[/]", b"[bold]y\x1b[2J"], dtype=object)))
    path = tmp_path / "markup.pb"
    path.write_bytes(graph.SerializeToString())
    return str(path)


def test_the_checkpoint_screen_lists_markup_and_escapes_as_written(tmp_path):
    path = checkpoint(tmp_path)

    @run_async
    async def body():
        app = InspectorApp([path])
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            await pilot.press("6")
            for _ in NAMES:
                await pilot.press("down")
                await settle(app, pilot)
            return screen_text(app)
    text = body()
    assert "[/]" in text and "[bold red]x\\x1b[2J" in text and "v\\n\\u202eevil" in text
    assert "\x1b" not in text and "\u202e" not in text


def test_a_string_constant_holding_markup_shows_on_the_tensor_tab(tmp_path):
    path = string_constant_graph(tmp_path)

    @run_async
    async def body():
        app = InspectorApp([path])
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            for key in ["slash", "[", "/", "]", "enter", "v"]:
                await pilot.press(key)
            await settle(app, pilot)
            return app.return_code, screen_text(app)
    return_code, text = body()
    assert return_code is None
    assert "[/]dev" in text and "[bold]y\\x1b[2J" in text and "\x1b" not in text


def test_a_path_that_reads_as_markup_is_named_in_the_notification(tmp_path):
    good = string_constant_graph(tmp_path)
    (tmp_path / "[").mkdir()
    bad = tmp_path / "[" / "]bad.pb"   # the path holds `[/]`
    bad.write_bytes(b"\x08\x01garbage")

    @run_async
    async def body():
        app = InspectorApp([good, str(bad)])
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            return app.return_code, screen_text(app)
    return_code, text = body()
    assert return_code is None
    assert "[/]bad.pb" in text.replace("\n", ""), text   # the toast and the banner
