"""The battlefield in words (issue 9): a player's desk lists his artillery calls (letter, kind,
tile, rows to On Target, On Target or Fake), planned barrages, radio contact, ordnance left and
his side's minefields with their kinds; the public lines show markers and tokens face down and
never a letter, a face, a plan or a kind."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st_

from bot.app import battlefield_words as B
from bot.app.prompts import hand_text
from engine.core.views import ArtilleryCallView, Mine, MyMinefieldView
from tests.app.battlefield_views import leaks, public_fields, secret_mine


def test_the_desk_lists_his_calls_barrages_radio_ordnance_and_minefields():
    desk = hand_text(secret_mine())
    assert "**Your artillery calls:** QQ: howitzer zeta on 31A, 2 rows to On Target, called by 1; " \
           "XJ: howitzer zeta on L9A, On Target, called by 1; ZV: howitzer zeta on L9A, Fake" in desk
    assert "**Your planned barrages (secret):** rockets omega on L9A at the start of turn 7" in desk
    assert "**Radio contact this turn:** 1: 1 LOOK phase so far" in desk
    assert "**Artillery to call:** howitzer zeta x2, rockets omega" in desk
    assert "**Your side's minefields (face down to the enemy):** 31A booby trap (booby+booby); " \
           "L9A mixed (AT+GP+AT+GP)" in desk
    assert desk.endswith("Cards left in your deck: 5.")


def test_chart_names_are_used_when_the_game_knows_them():
    line = B.private_lines(secret_mine(), {"howitzer-zeta": "105 mm howitzer"})[0]
    assert line.startswith("**Your artillery calls:** QQ: 105 mm howitzer on 31A")


def test_a_desk_without_battlefield_secrets_says_nothing_of_them():
    plain = Mine(seat=0, hand=[], placed=[None] * 3, held={}, fight_cards=[], order=None, soldier_vp={}, deck_top=3)
    assert B.private_lines(plain) == []
    assert "artillery" not in hand_text(plain).lower()


class _Public:
    """Just the public fields public_lines reads (a whole View is built in tests/render)."""

    def __init__(self, **kw):
        self.artillery, self.minefields, self.roadblocks = kw["artillery"], kw["minefields"], kw["roadblocks"]
        self.close_combats = kw.get("close_combats", [])
        self.options = {"trained_snipers": True, "schurzen": False, "other_ammo_vp": 12}
        self.vehicles = kw.get("vehicles", [902])  # a scenario with vehicles: their optional rules show
        self.mine = secret_mine()  # public_lines must never read it


def test_the_public_lines_show_markers_and_tokens_face_down_only():
    lines = B.public_lines(_Public(**public_fields(plate=902)))
    text = "\n".join(lines)
    assert "**Artillery markers (face down):** 31A (DE), 31A (US), L9A (US), L9A (US)" in text
    assert "**Mine tokens (face down):** 31A: 2 US tokens, L9A: 4 US tokens" in text
    assert "**Roadblocks:** 31A roadblock" in text
    assert "**Close combats:** 902 turret: 1, 2 against 60 (due)" in text
    assert "**Optional rules:** trained snipers" in text and "Schürzen" not in text
    assert leaks(text) == []


@settings(max_examples=60, deadline=None)
@given(st_.lists(st_.tuples(st_.text("ABCDEFGHJKLMNPRSTUVWXYZ", min_size=1, max_size=2), st_.integers(0, 4),
                            st_.booleans()), max_size=4),
       st_.lists(st_.sampled_from(["at", "gp", "mixed", "booby", "fake"]), max_size=3))
def test_no_secret_of_any_mine_reaches_the_public_lines(calls, kinds):
    """Whatever a seat's calls and mines, the public lines are the same (they read no Mine)."""
    mine = secret_mine().model_copy(update={
        "artillery": [ArtilleryCallView(letter=l, kind="howitzer-zeta", tile="31A", rows_left=r, fake=f)
                      for l, r, f in calls],
        "minefields": [MyMinefieldView(tile="31A", tokens=["at", "gp"], kind=k) for k in kinds]})
    a, b = _Public(**public_fields()), _Public(**public_fields())
    b.mine = mine
    assert B.public_lines(a) == B.public_lines(b)


def test_his_battlefield_commands_read_in_the_games_words():
    """Buttons, console options and the "Done:" reply (all his alone) name the men and the tank."""
    from pathlib import Path

    import yaml

    from bot.app.prompts import in_words, label
    from engine import load_catalog
    from engine.position import load_position
    from engine.script import parse_line
    root = Path(__file__).resolve().parents[1] / "fixtures"
    st = load_position(load_catalog(root / "rules"),
                       yaml.safe_load((root / "positions" / "tank-duel.yaml").read_text()))[0]
    said = {line: label(st, parse_line(st, line, 0)) for line in (
        "assail 1 902 turret grenade", "call 1 mortar-zz 43A fake", "tag adjust 1 B", "barrage rockets-zz 3 44A",
        "popsmoke 901", "handoff 1 radio 60", "recover 1 902")}
    assert said["assail 1 902 turret grenade"] == "Pvt. Avery (1) attacks the turret of Test Panzer 902, " \
                                                  "dropping a grenade in"
    assert said["call 1 mortar-zz 43A fake"] == "Pvt. Avery (1) calls mortar zz on 43A (a fake)"
    assert said["tag adjust 1 B"] == "Pvt. Avery (1) adjusts artillery call B [tag]"
    assert said["barrage rockets-zz 3 44A"] == "plan rockets zz on 44A for the start of turn 3 (secret)"
    assert said["popsmoke 901"] == "Test Sherman 901 pops smoke"
    assert said["handoff 1 radio 60"].startswith("Pvt. Avery (1) hands ") and "Pvt. Abbott (60" in said[
        "handoff 1 radio 60"]
    assert said["recover 1 902"] == "Pvt. Avery (1) takes over Test Panzer 902"
    assert in_words(st, parse_line(st, "popsmoke 901", 0)) == " — Test Sherman 901 pops smoke"


def test_known_minefields_are_public_lines():
    p = _Public(**public_fields())
    p.mines = ["33A", "12A"]
    assert "**Known minefields:** 12A, 33A" in B.public_lines(p)


def test_the_act_prompt_names_field_to_a_player_with_artillery():
    from pathlib import Path

    from bot.app.prompts import prompt_text
    from engine import load_catalog
    from tests.app.battlefield_views import artillery_lane
    st = artillery_lane(load_catalog(Path(__file__).resolve().parents[1] / "fixtures" / "rules"))
    assert "`/field assail|climb|call|adjust|barrage|popsmoke|handoff|recover|laymines|clearmines`" in prompt_text(st, 0, "act", "act")
    assert "/field" not in prompt_text(st, 1, "act", "act")


def test_a_vehicles_mine_load_is_read_to_its_own_side_only():
    from bot.app.battlefield_words import private_lines
    from engine.core.views import Mine
    mine = Mine(seat=0, hand=[], placed=[], held={}, fight_cards=[], order=None, soldier_vp={}, deck_top=0,
                mine_loads={702: [["at", "at"], ["gp", "fake"]]})
    assert private_lines(mine, bold=False, who=lambda p: f"Half-track {p}") == [
        "Mines to lay from your vehicles: Half-track 702: at+at, gp+fake"]
    assert private_lines(mine.model_copy(update={"mine_loads": {}}), bold=False) == []
