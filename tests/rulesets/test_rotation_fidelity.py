"""Who deals next, read against the texts (RULES.md §12.5, §14, §15).

- 血战/血流 (四川 §14, 宜昌 §15): a hand plays on after its first win.  Only the first win — one seat,
  or the several seats of one discard (一炮多响) — decides; the wins made as play goes on do not,
  wherever those seats sit.  (Before: any outcome with more than one winner and a first discarder was
  read as one discard's 一炮多响, so the next dealer depended on where the *later* winners sat.)
- 长沙 §12.5 「首局后，通炮者坐庄其次和家坐庄」: reading (a), the discarder deals after a 通炮 (several
  winners of one discard), the winner otherwise; reading (b), whoever deals in deals next, the winner
  only after a self-draw.  Both are options; the old value `winner` (neither reading) stays valid.
"""

import json

import pytest

from rulesets.definition import OptionError
from rulesets.regions import all_regions, get_region
from rulesets.rotation import HandOutcome, RotationRule

ALL = (0, 1, 2, 3)
XUE = ("sichuan", "yichang")


def dealer_after(region_id: str, dealer: int, outcome: HandOutcome, **options: str) -> int:
    """The next dealer; 血战/血流 under the dealer rule unless `first_win_dealer` is given (the default,
    the first winner, has tests of its own below)."""
    if region_id in XUE:
        options.setdefault("first_win_dealer", "dealer_rule")
    ruleset = get_region(region_id).resolve(options)
    return ruleset.rotation.next_dealer(dealer, ruleset.players, outcome)


# -- 血战 / 血流: the first win decides -------------------------------------------------------------


@pytest.mark.parametrize("region_id", XUE)
def test_the_reported_hand_passes_the_deal(region_id):
    """yichang seed 11 hand 2: dealer 0; seat 2 wins first on seat 3's discard, seat 0 only 7th."""
    outcome = HandOutcome((2, 2, 2, 1, 3, 3, 0), 3, first_winners=(2,))
    assert dealer_after(region_id, 0, outcome) == 1                 # 闲家胡下庄: the dealer's 下家


LATER = [(), (0,), (1,), (3,), (0, 1), (3, 0), (1, 3, 0), (0, 0, 3), (3, 1, 0, 1)]


@pytest.mark.parametrize("region_id", XUE)
@pytest.mark.parametrize("discarder", (None, 0, 1, 3))
@pytest.mark.parametrize("later", LATER)
def test_later_wins_do_not_choose_the_dealer(region_id, discarder, later):
    """Seat 2 wins first (self-drawn, or on a discard); whoever wins after, and where, changes nothing."""
    outcome = HandOutcome((2, *later), discarder, first_winners=(2,))
    alone = HandOutcome((2,), discarder)
    assert dealer_after(region_id, 0, outcome) == dealer_after(region_id, 0, alone) == 1
    assert dealer_after(region_id, 0, outcome, first_win_dealer="first_winner") == 2
    assert dealer_after(region_id, 0, outcome, yipao_dealer="dealer_stays") == 1     # no 一炮多响: no 连庄


@pytest.mark.parametrize("region_id", XUE)
@pytest.mark.parametrize("later", LATER)
def test_the_dealer_winning_first_keeps_the_deal(region_id, later):
    outcome = HandOutcome((0, *later), 2, first_winners=(0,))
    assert dealer_after(region_id, 0, outcome) == 0
    assert dealer_after(region_id, 0, outcome, first_win_dealer="first_winner") == 0


@pytest.mark.parametrize("region_id", XUE)
def test_the_old_misreading_is_gone(region_id):
    """The finding's pairs: winners (2, 0) — seat 2 first, the dealer later — gave 0 or 1 by the later
    discarder's seat; told which win came first, the answer is 1 whatever the discarder."""
    for discarder in (3, 1, None):
        assert dealer_after(region_id, 0, HandOutcome((2, 0), discarder, first_winners=(2,))) == 1


@pytest.mark.parametrize("region_id", XUE)
def test_a_genuine_yipao_duoxiang_first(region_id):
    """Seats 2 and 0 win on seat 3's discard, then seat 1 wins later: the first discard's winners decide."""
    nearest_is_dealer = HandOutcome((2, 0, 1), 3, first_winners=(2, 0))      # from 3: 0 comes before 2
    assert dealer_after(region_id, 0, nearest_is_dealer) == 0
    nearest_is_other = HandOutcome((2, 0, 3), 1, first_winners=(2, 0))       # from 1: 2 comes before 0
    assert dealer_after(region_id, 0, nearest_is_other) == 1
    assert dealer_after(region_id, 0, nearest_is_other, yipao_dealer="dealer_stays") == 0
    assert dealer_after(region_id, 0, nearest_is_other, first_win_dealer="first_winner") == 1   # the discarder
    without_dealer = HandOutcome((2, 3, 0), 1, first_winners=(2, 3))
    assert dealer_after(region_id, 0, without_dealer, yipao_dealer="dealer_stays") == 1
    assert dealer_after(region_id, 0, without_dealer, first_win_dealer="first_winner") == 1
    assert dealer_after(region_id, 2, without_dealer, first_win_dealer="first_winner") == 1


@pytest.mark.parametrize("region_id", XUE)
def test_a_draw_keeps_the_dealer(region_id):
    for value in ("dealer_rule", "first_winner"):
        assert dealer_after(region_id, 3, HandOutcome(), first_win_dealer=value) == 3


def test_every_region_that_plays_on_asks_who_deals_next():
    """A hand that plays on after a win is the only kind with wins after the first; each such card
    settles who deals next by an option, with a stated default."""
    for region in all_regions():
        plays_on = {region.resolve({o.key: v}).play.after_win for o in region.options for v in o.values} | \
                   {region.resolve().play.after_win}
        keys = {o.key for o in region.options}
        assert ("first_win_dealer" in keys) == (plays_on != {"end"}), region.id
        if "first_win_dealer" in keys:
            option = region.option("first_win_dealer")
            assert option.default == "first_winner" and option.source.kind == "open"


# -- what the firmware hands over -----------------------------------------------------------------


def test_first_win_seats_groups_one_discard():
    from rulesets.rotation import first_win_seats
    assert first_win_seats([]) == ()
    assert first_win_seats([(2, None, 40), (1, None, 40)]) == (2,)                  # self-drawn: one seat
    assert first_win_seats([(2, 3, 40), (0, 3, 40), (1, 0, 47)]) == (2, 0)          # 一炮多响, then another
    assert first_win_seats([(2, 3, 40), (0, 3, 41)]) == (2,)                        # a tile taken between
    assert first_win_seats([(2, 3, 40), (1, 0, 40)]) == (2,)                        # another discarder
    assert first_win_seats([(2, 3, 40), (2, 3, 40)]) == (2,)                        # a seat wins once a discard
    assert first_win_seats([(2, 3, 40), (0, 3, 40), (1, 3, 40)]) == (2, 0, 1)


def test_first_winners_must_be_the_first_wins():
    assert HandOutcome((2, 0), 3).first_win == (2, 0)                     # not said: all won together
    assert HandOutcome((2, 0), 3, first_winners=(2,)).first_win == (2,)
    assert HandOutcome((0, 2, 1), 3, first_winners=(2, 0)).first_win == (2, 0)
    for bad in ((), (0,), (2, 1), (2, 0, 1, 3)):
        with pytest.raises(ValueError):
            HandOutcome((2, 0, 1), 3, first_winners=bad)
    with pytest.raises(ValueError):
        HandOutcome((2, 0), None, first_winners=(2, 0))                   # several need one discard
    with pytest.raises(ValueError):
        HandOutcome((), None, first_winners=(2,))


def test_a_hand_that_ends_at_its_first_win_is_read_as_before():
    """Without first_winners all winners are the first win's (a hand that ends there has no others)."""
    rule = RotationRule("keep", "next", "keep", "nearest_winner")
    assert rule.next_dealer(0, ALL, HandOutcome((2, 0), 3)) == 0
    assert rule.next_dealer(0, ALL, HandOutcome((2, 0), 1)) == 1
    assert rule.next_dealer(0, ALL, HandOutcome((2, 0), 3, first_winners=(2, 0))) == 0


# -- 长沙 通炮者坐庄: readings (a) and (b) ------------------------------------------------------------


def test_changsha_reading_a_is_the_default():
    """(a): after a 通炮 the discarder deals; otherwise the winner (the dealer winning keeps)."""
    assert get_region("changsha").option("tongpao_dealer").default == "discarder_on_multi"
    assert dealer_after("changsha", 0, HandOutcome((1, 2), 3)) == 3
    assert dealer_after("changsha", 0, HandOutcome((2,), 3)) == 2
    assert dealer_after("changsha", 0, HandOutcome((2,), None)) == 2
    assert dealer_after("changsha", 0, HandOutcome((0,), 3)) == 0
    assert dealer_after("changsha", 0, HandOutcome()) == 0


def test_changsha_reading_b_whoever_deals_in_deals_next():
    """(b): 通炮者 = any discarder who deals in; only on a self-draw the winner."""
    b = {"tongpao_dealer": "discarder"}
    assert dealer_after("changsha", 0, HandOutcome((2,), 3), **b) == 3
    assert dealer_after("changsha", 0, HandOutcome((2,), 1), **b) == 1
    assert dealer_after("changsha", 0, HandOutcome((0,), 1), **b) == 1          # the dealer won on 1's discard
    assert dealer_after("changsha", 0, HandOutcome((1, 2), 3), **b) == 3        # 通炮 too
    assert dealer_after("changsha", 0, HandOutcome((2,), None), **b) == 2       # self-draw: the winner
    assert dealer_after("changsha", 0, HandOutcome((0,), None), **b) == 0
    assert dealer_after("changsha", 0, HandOutcome(), **b) == 0
    stays = dict(b, yipao_dealer="dealer_stays")
    assert dealer_after("changsha", 0, HandOutcome((2, 0), 3), **stays) == 0     # §5: the dealer among them
    assert dealer_after("changsha", 0, HandOutcome((2,), 3), **stays) == 3


def test_changsha_options_name_both_readings_and_say_winner_is_neither():
    option = get_region("changsha").option("tongpao_dealer")
    meaning = dict(option.choices)
    assert option.values == ("discarder_on_multi", "discarder", "winner")
    assert meaning["discarder_on_multi"].startswith("(a)") and meaning["discarder"].startswith("(b)")
    assert "neither reading" in meaning["winner"]
    ruleset = get_region("changsha").resolve({"tongpao_dealer": "winner"})
    assert ruleset.source("rotation").kind == "default"                          # not quoted as a reading
    assert "通炮者坐庄其次和家坐庄" in get_region("changsha").resolve({"tongpao_dealer": "discarder"}).source("rotation").quote
    assert "whoever deals in" in ruleset.region.resolve({"tongpao_dealer": "discarder"}).rotation.describe()


def test_saved_settings_stay_valid(tmp_path):
    """A table that saved changsha's `winner`, or 四川/宜昌 settings from before first_win_dealer, keeps them;
    a value the card does not know falls back to the defaults instead of stopping the table."""
    from firmware.panel import Settings
    from firmware.state import SessionState

    settings = Settings(tmp_path / "settings.db")
    settings.save_choice("changsha", {"tongpao_dealer": "winner"})
    assert settings.ruleset_choice() == ("changsha", {"tongpao_dealer": "winner"})
    settings.put("options:changsha", json.dumps({"tongpao_dealer": "no_such_reading"}))
    assert settings.ruleset_choice() == ("changsha", {})
    settings.close()
    with pytest.raises(OptionError):
        get_region("changsha").resolve({"tongpao_dealer": "no_such_reading"})
    for region_id, options in (("changsha", {"tongpao_dealer": "winner"}), ("sichuan", {"yipao_dealer": "region"}),
                               ("yichang", {"exchange_direction": "dice"})):
        journaled = {"session": 1, "ruleset": region_id, "options": options, "dealer": 0, "dealer_repeats": 0,
                     "totals": [0, 0, 0, 0], "hand_number": 3}
        assert SessionState.from_json(journaled).ruleset().id == region_id


@pytest.mark.parametrize("region_id", XUE)
def test_by_default_the_first_winner_deals_next(region_id):
    """What 血战 players expect (首先和牌者坐庄): the reported hand goes to seat 2, who won first."""
    ruleset = get_region(region_id).resolve()
    assert ruleset.rotation.next_dealer(0, ALL, HandOutcome((2, 2, 2, 1, 3, 3, 0), 3, first_winners=(2,))) == 2
    assert ruleset.rotation.next_dealer(0, ALL, HandOutcome((2, 0, 1), 3, first_winners=(2, 0))) == 3   # the discarder
    assert ruleset.rotation.next_dealer(1, ALL, HandOutcome(())) == 1                                   # 荒庄 keeps
