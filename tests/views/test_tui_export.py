"""`x` exports exactly what its dialog names: the Picture tab's nodes, no others."""

import re

from views.tui import InspectorApp
from views.tui.picture import draw
from views.tui.screens.pickers import ExportScreen

from tests.views.tui_conftest import MLP_SGD, ROOT, run_async, screen_text, settle

NODE = "layer1/MatMul"


def test_x_writes_the_picture_nodes_and_no_others(tmp_path):
    out = tmp_path / "near.dot"

    @run_async
    async def body():
        app = InspectorApp([str(ROOT / MLP_SGD)])
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            await pilot.press("slash", *f"^{NODE}$", "enter", "p")
            await settle(app, pilot)
            await pilot.press("x")
            await pilot.pause()
            assert isinstance(app.screen, ExportScreen)
            pictured = draw(app.browser.view.index, app.browser.key, 1).nodes
            assert f"depth 1: the Picture tab's {len(pictured)} nodes" in screen_text(app)
            field = app.screen.query_one("#export-path")
            field.value = str(out)
            await pilot.press("enter")
            await pilot.pause()
            return app.browser.view.index, pictured
    index, pictured = body()
    text = out.read_text()
    ids = {a or b for a, b in re.findall(r'\bid=(?:"([^"]+)"|([^\s\]"]+))', text)}
    drawn = {i for i in ids if not i.startswith(("cluster:", "legend"))}
    assert drawn == {index.nodes[key].name for key in pictured}
    assert len(drawn) == 5
