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


def test_the_board_says_when_low_friendship_blocks_trophies():
    """"If your friendship is below 3, you won't be able to earn any trophies" ("Low
    Friendship"): a player who meets a trophy there sees why none is placed."""
    m = position(tracks={"ann": {"friendship": 2, "pies": 8}})
    text = render(m.view("bob"), "bob")
    assert "friendship 2  pies 8/10" in text
    assert "trophies 0/4: none (friendship below 3: none can be earned)   spells: 1 hidden" in text
    assert text.count("none can be earned") == 1  # bob, at 3, is not marked


def test_the_pie_track_shows_the_top_the_content_gives():
    """"the Pie Track, which can go up to 10" ("Craft"): the board reads the top from the
    content, so a content file with a longer track shows it."""
    m = position(tracks={"ann": {"pies": 8}})
    s = m.view("ann")
    content = {**s.content, "tracks": {**s.content["tracks"], "pies": {**s.content["tracks"]["pies"], "max": 12}}}
    longer = s.__class__(**{**{f: getattr(s, f) for f in s.__struct_fields__}, "content": content})
    assert "pies 8/12" in render(longer, "ann") and "pies 8/10" in render(s, "ann")
