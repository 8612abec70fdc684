"""The rolls of ``attack`` and ``defend`` at the edges of the success table (issue 29, item 8):
what the command prints and its ``--json`` say about criticals, margins below 0 on a success, and
the hits a rapid-fire attack scores or a dodge leaves.

Worked numbers from the Basic Set: 3 and 4 always succeed, critically, even under skill 4 (B344,
B347); 5 is critical at 15 or more, 6 at 16 or more (B347); 17 and 18 always fail (B344), 17
critically at 15 or less, and any roll 10 or more over the skill (B348). A rapid-fire attack hits
once plus once per full Recoil of its margin (B373-B374); a dodge avoids one hit plus one per point
of its margin, a critical one all of them, a failed one none (B375).
"""

from __future__ import annotations

import json

import pytest

from tests.support.cli_runner import in_process


def _last_lines(*args: str) -> list[str]:
    run = in_process(*args)
    assert (run.status, run.err) == (0, ""), run.err
    return run.out.splitlines()[-2:]


@pytest.mark.parametrize(
    ("dodge", "roll", "hits", "lines"),
    [
        # a critical success avoids every hit, whatever its margin would leave (B375)
        ("10", "3", "10", ["roll 3 against 10: critical success, margin +7", "hits: 0 of 10 still land"]),
        ("15", "5", "20", ["roll 5 against 15: critical success, margin +10", "hits: 0 of 20 still land"]),
        ("16", "6", "20", ["roll 6 against 16: critical success, margin +10", "hits: 0 of 20 still land"]),
        # one step short of a critical: 1 + margin avoided
        ("15", "6", "20", ["roll 6 against 15: success, margin +9", "hits: 10 of 20 still land"]),
        ("14", "5", "20", ["roll 5 against 14: success, margin +9", "hits: 10 of 20 still land"]),
        # 3 and 4 succeed under 4, critically: a margin below 0 avoids them all
        ("2", "4", "5", ["roll 4 against 2: critical success, margin -2", "hits: 0 of 5 still land"]),
        ("3", "4", "5", ["roll 4 against 3: critical success, margin -1", "hits: 0 of 5 still land"]),
        ("-7", "4", "5", ["roll 4 against -7: critical success, margin -11", "hits: 0 of 5 still land"]),
        ("2", "5", "4", ["roll 5 against 2: failure, margin -3", "hits: 4 of 4 still land"]),
        # 17 fails whatever the dodge (margin 0 or more), 10 over is critical: none avoided
        ("17", "17", "5", ["roll 17 against 17: failure, margin +0", "hits: 5 of 5 still land"]),
        ("20", "18", "5", ["roll 18 against 20: critical failure, margin +2", "hits: 5 of 5 still land"]),
        ("5", "15", "4", ["roll 15 against 5: critical failure, margin -10", "hits: 4 of 4 still land"]),
        ("5", "14", "4", ["roll 14 against 5: failure, margin -9", "hits: 4 of 4 still land"]),
        # margin 0 avoids one
        ("9", "9", "3", ["roll 9 against 9: success, margin +0", "hits: 2 of 3 still land"]),
    ],
)
def test_the_hits_a_dodge_leaves_at_the_table_edges(
    dodge: str, roll: str, hits: str, lines: list[str]
) -> None:
    assert _last_lines("defend", "dodge", dodge, "--roll", roll, "--hits", hits) == lines
    run = in_process("defend", "dodge", dodge, "--roll", roll, "--hits", hits, "--json")
    report = json.loads(run.out)
    assert report["hitsLeft"] == int(lines[1].split()[1])
    assert report["result"]["critical"] == ("critical" in lines[0])
    assert report["result"]["success"] == ("success" in lines[0])


@pytest.mark.parametrize(
    ("base", "roll", "recoil", "lines"),
    [
        # effective 3 (1 + 2 for 10 shots, B373): a 4 succeeds critically, margin -1, one hit
        ("1", "4", "2", ["roll 4 against 3: critical success, margin -1", "hits: 1 of 10 shots (Rcl 2)"]),
        ("1", "3", "1", ["roll 3 against 3: critical success, margin +0", "hits: 1 of 10 shots (Rcl 1)"]),
        ("2", "4", "1", ["roll 4 against 4: critical success, margin +0", "hits: 1 of 10 shots (Rcl 1)"]),
        ("1", "5", "1", ["roll 5 against 3: failure, margin -2", "hits: 0 of 10 shots (Rcl 1)"]),
        # under 3 no roll is made: no hit
        (
            "0",
            "3",
            "1",
            [
                "roll 3 against 2: no roll, an effective skill under 3 cannot be attempted (B344)",
                "hits: 0 of 10 shots (Rcl 1)",
            ],
        ),
        # 17 misses even at 22; the margin's full Recoils count, never more than the shots
        ("20", "17", "1", ["roll 17 against 22: failure, margin +5", "hits: 0 of 10 shots (Rcl 1)"]),
        ("10", "7", "2", ["roll 7 against 12: success, margin +5", "hits: 3 of 10 shots (Rcl 2)"]),
        ("16", "6", "1", ["roll 6 against 18: critical success, margin +12", "hits: 10 of 10 shots (Rcl 1)"]),
    ],
)
def test_the_hits_of_a_rapid_fire_attack_at_the_table_edges(
    base: str, roll: str, recoil: str, lines: list[str]
) -> None:
    args = ("attack", base, "--ranged", "--rof", "10", "--roll", roll, "--recoil", recoil)
    assert _last_lines(*args) == lines
    report = json.loads(in_process(*args, "--json").out)
    assert report["hits"] == int(lines[1].split()[1])
