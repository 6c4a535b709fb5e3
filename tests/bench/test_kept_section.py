"""`make bench` rewrites BENCHMARKS.md but carries over what follows the kept marker (figures
from machines it does not run on, such as a lent GPU)."""

from bench import __main__ as bench_main


def test_the_kept_tail_is_carried_over(tmp_path):
    path = tmp_path / "BENCHMARKS.md"
    path.write_text("# old run\n| a | 1x |\n\n" + bench_main.KEPT_MARKER + "\n## GPU\nH200 0.32x\n")
    assert bench_main.kept_section(str(path)) == (
        "\n" + bench_main.KEPT_MARKER + "\n## GPU\nH200 0.32x\n")


def test_no_marker_or_no_file_keeps_nothing(tmp_path):
    path = tmp_path / "BENCHMARKS.md"
    assert bench_main.kept_section(str(path)) == ""
    path.write_text("# old run\n")
    assert bench_main.kept_section(str(path)) == ""
