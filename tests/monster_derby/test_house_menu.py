"""play's menu marks house content as the board does (games.md: house content is labelled
house where a player sees it): the monsters an entry names, the monster whose ability it
uses, the agenda card it keeps. Choosing the entry still gives the plain command."""

from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core.match import Match
from arbiter.testing import menu_labels
from arbiter.core.monster_derby import GAME


def test_entries_naming_house_monsters_or_agendas_say_house():
    shown = menu_labels(Match.new(GAME, seed=3, seats=["ann", "bob"]))
    assert shown["control kraken"] == "control kraken  (Kraken, house)"
    assert shown["attack griffin"] == "attack griffin  (Griffin, house numbers)"
    assert shown["fly 4b"] == "fly 4b  (Djinni, house)"  # the flyer is the controlled monster
    assert all(label.endswith("(house agenda card)") for text, label in shown.items() if text.startswith("keep "))
    for plain in ("roll", "end", "recover", "take-marker"):
        assert shown[plain] == plain
    assert all(label == text or label.startswith(text + "  (") for text, label in shown.items())


def test_rulebook_content_is_not_marked_house():
    content = GAME.default_content()
    for m in content["monsters"]:
        m["source"] = "rulebook"
    for a in content["agendas"]:
        a["source"] = "rulebook"
    shown = menu_labels(Match.new(GAME, seed=3, seats=["ann", "bob"], content=content))
    assert [label for text, label in shown.items() if label != text] == []


def test_the_play_menu_shows_the_label_and_choosing_it_keeps_the_card(tmp_path):
    db = str(tmp_path / "md.duckdb")
    run = CliRunner()
    made = run.invoke(app, ["--db", db, "new", "monster-derby", "-p", "ann,bob", "--seed", "3"])
    gid = made.output.split()[0]
    shown = run.invoke(app, ["--db", db, "play", gid], input="quit\n", env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    entry = next(line for line in shown.output.splitlines() if " keep agenda-" in line)
    assert entry.rstrip().endswith("  (house agenda card)")
    number, card = entry.split()[0], entry.split()[2]
    chosen = run.invoke(app, ["--db", db, "play", gid], input=f"{number}\nquit\n", env={"COLUMNS": "200"})
    assert chosen.exit_code == 0, chosen.output
    rows = run.invoke(app, ["--db", db, "query", "select text from commands where game_id like '%'", "--format", "csv"])
    assert f"keep {card}" in rows.output
