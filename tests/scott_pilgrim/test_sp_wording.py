"""What a player reads names no internal identifiers (issue 9): a played battle's `log` and
`show`, for both teams, carry no snake_case words and no Python dict or list reprs."""

from __future__ import annotations

import re

from monster_derby.test_cli import run
from monster_derby.test_wording import player_text_problems


def test_a_played_battle_log_and_show_name_no_identifiers(tmp_path):
    sim = run(tmp_path, "simulate", "scott-pilgrim", "--games", "1", "--bot", "smart", "--seed", "5")
    assert sim.returncode == 0, sim.stderr
    gid = sim.stdout.split("last ")[1].split()[0]
    texts = []
    for args in (("log", gid), ("show", gid), ("log", gid, "--as", "bot2"), ("show", gid, "--as", "bot2")):
        out = run(tmp_path, *args)
        assert out.returncode == 0, out.stderr
        texts.append(out.stdout)
    assert "KnockedBack" in texts[0] and "BattleOver" in texts[0]
    assert player_text_problems("\n".join(texts)) == []
    # a knockback against the wall it already stands at says it does not move, never "from
    # a6 to a6"
    assert "is knocked back into the wall and does not move (stays on " in texts[0]
    assert not re.search(r"from (\w+) to \1\b", texts[0])
