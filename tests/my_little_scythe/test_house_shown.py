"""House content is shown as house where a player sees it (show, play): the map, the mat, the
personality card, spells, power-up tiles and quest cards the rulebook does not print."""

from arbiter.cli.render.my_little_scythe import render
from my_little_scythe.helpers import position


def test_the_board_marks_house_map_mat_cards_and_tiles():
    m = position(personality={"ann": "personality-sweet"}, spells={"ann": ("spell-01",)},
                 tiles={"ann": {"move": "pu-move-01"}})
    text = " ".join(render(m.view("ann"), "ann").split())  # lines wrap at 100 columns
    assert "house map;" in text and "mat (house):" in text
    assert "Sweet-toothed (house)" in text
    assert "spell-01(" in text and ", house)" in text
    assert "move: Supply Catapult (rulebook name, house effect)" in text
    # another seat's secret card stays secret: no house mark betrays it
    assert "Sweet-toothed" not in render(m.view("bob"), "bob")


def test_a_user_content_file_from_the_rulebook_is_not_marked_house():
    m = position(personality={"ann": "personality-sweet"})
    s = m.view("ann")
    content = dict(s.content)
    content["personalities"] = [{**c, "source": "rulebook"} for c in content["personalities"]]
    content["spaces"] = [{**sp, "source": "rulebook"} for sp in content["spaces"]]
    text = render(s.__class__(**{**{f: getattr(s, f) for f in s.__struct_fields__}, "content": content}), "ann")
    assert "Sweet-toothed (house)" not in text and "house map" not in text
