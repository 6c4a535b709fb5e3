"""The command line as people expect one: --version, completion, help topics, stdin, the
README's command reference in step with --help, one rule for stdout and stderr."""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector import cli

ROOT = Path(__file__).resolve().parents[2]
GRAPH = ROOT / "tests/fixtures/graphs/counter.pb"
TWO_CPU_RUN = ROOT / "tests/fixtures/runs/two_cpu.pb"


def run(capsys, *argv):
    status = cli.main([*map(str, argv)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def subcommands(parser):
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def long_options(parser):
    return {option for action in parser._actions for option in action.option_strings
            if option.startswith("--") and option != "--help"}


# ---- --version, completion ---------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(capsys, flag):
    from importlib import metadata

    with pytest.raises(SystemExit) as exit_info:
        cli.main([flag])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"graph-inspector {metadata.version('graph-inspector')}\n"


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_sees_every_subcommand_and_its_options(capsys, shell):
    status, script, _ = run(capsys, "--print-completion", shell)
    assert status == 0
    parser = cli.build_parser(everything=True)
    for name, sub in subcommands(parser).items():
        assert name in script
        if shell != "tcsh":  # shtab's tcsh script completes subcommands and paths only
            for option in long_options(sub):
                assert option in script, (name, option)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_subcommands_and_options(tmp_path, capsys):
    script = tmp_path / "complete.bash"
    script.write_text(run(capsys, "--print-completion", "bash")[1])

    def complete(*words):
        line = " ".join(["graph-inspector", *words])
        program = (f"source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words)};"
                   f" COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}};"
                   f" _shtab_graph_inspector graph-inspector; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
        done = subprocess.run(["bash", "-c", program], capture_output=True, text=True,
                              timeout=30, cwd=tmp_path)
        return done.stdout.split()

    assert {"info", "dot", "tensorboard", "help"} <= set(complete(""))
    assert "tensorboard" in complete("ten")
    assert {"--expand", "--focus", "--budget"} <= set(complete("dot", "--"))


# ---- help topics -------------------------------------------------------------------------------

def test_help_topics(capsys):
    status, out, _ = run(capsys, "help")
    assert status == 0 and all(topic in out for topic in ("formats", "keys", "environment"))
    status, out, _ = run(capsys, "help", "environment")
    # every variable the code reads is documented
    for name in ("TF_CPP_MAX_VLOG_LEVEL", "TF_CPP_MIN_VLOG_LEVEL", "TF_CPP_VMODULE",
                 "GI_MAX_LOOP_ITERATIONS", "GI_ENGINE_DEBUG", "GRAPH_INSPECTOR_SIMULATED_GPUS",
                 "GRAPH_INSPECTOR_REWRITE"):
        assert name in out
    status, out, _ = run(capsys, "help", "keys")
    from views.tui import bindings
    for table in bindings.HELP_SECTIONS.values():
        for binding in table:
            assert (binding.description or binding.action) in out
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["help", "nope"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'nope'" in capsys.readouterr().err


def test_every_environment_variable_the_code_reads_is_in_help():
    names = set()
    for package in ("engine", "parsers", "views", "inspector"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            names |= set(re.findall(r"environ(?:\.get)?\(\s*[\"']([A-Z_][A-Z0-9_]+)", text))
            names |= set(re.findall(r"getenv\(\s*[\"']([A-Z_][A-Z0-9_]+)", text))
            names |= set(re.findall(r"^[A-Z_]+_ENV = [\"']([A-Z_][A-Z0-9_]+)", text, re.M))
    from inspector.cmd_help import ENVIRONMENT
    assert names and not {name for name in names if name not in ENVIRONMENT}


# ---- README's command reference is --help's ----------------------------------------------------

def readme_sections():
    """Command -> the text of its README section (`### graph-inspector CMD ...`)."""
    text = (ROOT / "README.md").read_text()
    commands = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    sections = {}
    for block in re.split(r"\n(?=### )", commands):
        heading = re.match(r"### `graph-inspector (\S+)", block)
        if heading:
            name = heading.group(1)
            key = name if name in cli.COMMANDS else "(top)"
            sections[key] = sections.get(key, "") + block  # `info PATH` and `info --ops`: one command
    return sections


def test_readme_command_reference_matches_help():
    sections = readme_sections()
    parser = cli.build_parser(everything=True)
    commands = subcommands(parser)
    assert set(commands) <= set(sections), "commands without a README section"
    documented_top = set(re.findall(r"--[a-z][a-z-]*", sections["(top)"]))
    assert long_options(parser) <= documented_top
    for name, sub in commands.items():
        text = _own_options_text(sections[name], name)
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text)) - {"--help"}
        assert named == long_options(sub), (name, named ^ long_options(sub))


def _own_options_text(section, command):
    """A command's section without the code spans that quote another command's options
    (`dot --graph` in the tui section, `saved_model_cli show --all`)."""
    def own(span):
        words = span.group(1).split()
        first = words[0] if words else ""
        if first == "graph-inspector":
            first = words[1] if len(words) > 1 else command
        quoted_other = not first.startswith("-") and first not in (command, "PATH", "PATH...")
        return "" if quoted_other and "--" in span.group(1) else span.group(0)
    return re.sub(r"`([^`]*)`", own, section)


# ---- stdin, stdout and the status-line rule ----------------------------------------------------

def inspector(*argv, stdin=None):
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, argv)], cwd=ROOT,
                          stdin=stdin, capture_output=True, timeout=120)


def test_info_and_dot_read_stdin():
    with open(GRAPH, "rb") as graph:
        from_stdin = inspector("info", "-", stdin=graph)
    from_file = inspector("info", GRAPH)
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert from_stdin.stdout.decode().replace("-: ", f"{GRAPH}: ", 1).replace(
        "'stdin'", "'counter.pb'") == from_file.stdout.decode()
    with open(GRAPH, "rb") as graph:
        drawn = inspector("dot", "-", "-o", "-", stdin=graph)
    assert drawn.returncode == 0 and drawn.stdout.startswith(b"digraph")
    assert drawn.stderr.decode().startswith("wrote stdout: stdin, 8 nodes")
    empty = inspector("info", "-", stdin=subprocess.DEVNULL)
    assert (empty.returncode, empty.stderr) == (2, b"error: -: empty input (nothing on stdin)\n")
    refused = subprocess.run([sys.executable, "-m", "inspector", "dot", "-", "-o", "-"],
                             cwd=ROOT, input=b"\x0a\xff\xff garbage", capture_output=True,
                             timeout=120)
    assert refused.returncode == 2 and refused.stderr.startswith(b"error: -: ")
    assert b"graph-inspector-stdin" not in refused.stderr


def test_results_on_stdout_and_status_lines_on_stderr(capsys, tmp_path):
    status, out, err = run(capsys, "dot", GRAPH, "-o", tmp_path / "g.dot")
    assert (status, out) == (0, "") and err.startswith("wrote ")
    status, out, err = run(capsys, "dot", GRAPH, "-o", "-")
    assert out.startswith("digraph") and err.startswith("wrote stdout: ")
    status, out, err = run(capsys, "trace", TWO_CPU_RUN, "-o", "-")
    assert out.startswith('{"displayTimeUnit"') and err.startswith("wrote stdout: 1 runs")
    status, out, err = run(capsys, "tensorboard", GRAPH, "--logdir", tmp_path / "logs")
    assert (status, out) == (0, "") and err.startswith("wrote 1 TensorBoard runs")
    status, out, err = run(capsys, "run", GRAPH, "--before", "init", "--fetch", "Add:0",
                           "--trace", tmp_path / "r.pb")
    assert out == "Add:0 = 1\n" and err == ""
    status, out, err = run(capsys, "vlog", ROOT / "sample_logs/two_cpus.log",
                           "-o", tmp_path / "v")
    assert out.startswith(str(ROOT / "sample_logs/two_cpus.log"))
    assert err.startswith("wrote ") and "wrote" not in out
    assert not (Path.cwd() / "-").exists()


def test_dot_warns_past_its_budget_and_says_how_to_narrow(capsys, tmp_path):
    graph = ROOT / "tests/fixtures/graphs/cnn_train.pb"
    status, _, err = run(capsys, "dot", graph, "-o", tmp_path / "g.dot", "--budget", "10",
                         "--expand", "*")
    assert status == 0
    warning = err.splitlines()[0]
    assert re.match(rf"warning: {re.escape(str(graph))}: drawing \d+ boxes, over the budget"
                    r" of 10 \(--expand '\*' opens scopes whatever the budget\)", warning)
    assert "--focus NODE" in warning and "--collapse DEPTH" in warning
    status, _, err = run(capsys, "dot", graph, "-o", tmp_path / "g.dot", "--budget", "10")
    assert status == 0 and "warning" not in err  # within the budget: silent
