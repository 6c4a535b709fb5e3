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


def traced_run(tmp_path):
    """A graph whose node names hold ESC [2J and an RTL mark, and its FULL_TRACE RunMetadata."""
    from inspector import cli

    graph = graph_pb2.GraphDef()
    const = graph.node.add(name="c\x1b[2J\u202e", op="Const")
    const.attr["dtype"].type = types_pb2.DT_FLOAT
    const.attr["value"].tensor.CopyFrom(tensor_util.make_tensor_proto(np.float32(1)))
    identity = graph.node.add(name="[/]y", op="Identity", input=[const.name])
    identity.attr["T"].type = types_pb2.DT_FLOAT
    (tmp_path / "g.pb").write_bytes(graph.SerializeToString())
    assert cli.main(["run", str(tmp_path / "g.pb"), "--fetch", "[/]y:0",
                     "--trace", str(tmp_path / "run.pb")]) == 0
    return [str(tmp_path / "run.pb"), str(tmp_path / "g.pb")]


def test_the_runs_screen_and_the_nodedef_tab_escape_names(tmp_path, capsys):
    # the runs screen's table drew node names raw; the NodeDef tab an RTL mark (protobuf's
    # text format escapes ESC but writes the mark as it is)
    paths = traced_run(tmp_path)
    capsys.readouterr()

    @run_async
    async def body():
        app = InspectorApp(paths)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            await pilot.press("2")
            await settle(app, pilot)
            runs = screen_text(app)
            await pilot.press("down", "enter", "d")
            await settle(app, pilot)
            return runs, screen_text(app)
    runs, browser = body()
    assert "c\\x1b[2J\\u202e" in runs and "[/]y" in runs
    assert 'name: "c\\033[2J\\u202e"' in browser
    for text in (runs, browser):
        assert "\x1b" not in text and "\u202e" not in text
