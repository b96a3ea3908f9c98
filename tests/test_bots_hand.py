"""The hand's stroke (issue 20, item 1): where the finger meets the die is
scattered too, its height (``strike_mm``) and its offset sideways, which
spins the die; bots and the window's humans flick through the one
:meth:`Hand.deliver`. Before, a hand scattered only the speed and
direction (``Hand.stroke`` and ``deliver`` did not exist) and the aim bot
drew a spin of its own."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import AimBot, SearchBot
from warlords_sim.bots.policy import HAND_DRAWS, Hand
from warlords_sim.bots.skill import SkillLevel, skill_noise
from warlords_sim.physics.impact import die_inertia
from warlords_sim.rules import Game, GameConfig, HouseRules
from warlords_sim.rules.actions import BoardFlick, Decline, SiegeShot, SupplyFlick

BOARD = load_board("standard")
I2 = die_inertia(BOARD.die) / BOARD.die.mass_g  # mm^2


def test_levels_scatter_the_strike_and_offset_with_their_documented_sd() -> None:
    """0.8, 1.6, 3.2 mm (skill.py), and a number's 0.8 mm per degree of
    its direction sd."""
    assert [lvl.noise.strike_sd_mm for lvl in SkillLevel] == pytest.approx([3.2, 1.6, 0.8])
    assert [lvl.noise.offset_sd_mm for lvl in SkillLevel] == pytest.approx([3.2, 1.6, 0.8])
    n = skill_noise(0.7)
    assert n.strike_sd_mm == pytest.approx(0.8 * n.direction_sd_deg)


def test_no_draw_no_scatter() -> None:
    st = Hand(SkillLevel.NOVICE).stroke((300.0, 400.0), 5.0, 2.0, (0.0,) * 4, BOARD)
    assert st.velocity == pytest.approx((300.0, 400.0))
    assert (st.spin, st.strike_mm, st.offset_mm) == (5.0, 2.0, 0.0)


def test_a_blow_left_of_the_centre_spins_the_die_clockwise() -> None:
    """An impulse m v at lever arm d about the centre: spin -v d / i2
    (41.5 mm^2 for the standard die); one sd (club: 1.6 mm) at 1000 mm/s
    is 38.6 rad/s clockwise."""
    hand = Hand(SkillLevel.CLUB)
    st = hand.stroke((0.0, 1000.0), 0.0, 0.0, (0.0, 0.0, 0.0, 1.0), BOARD)
    assert st.offset_mm == pytest.approx(1.6)
    assert st.spin == pytest.approx(-1000.0 * 1.6 / I2)
    assert st.spin == pytest.approx(-38.59, abs=0.01)
    right = hand.stroke((0.0, 1000.0), 0.0, 0.0, (0.0, 0.0, 0.0, -1.0), BOARD)
    assert right.spin == pytest.approx(-st.spin)


def test_the_strike_stays_within_the_die_and_the_spin_within_the_limit() -> None:
    hand = Hand(SkillLevel.NOVICE)
    half = BOARD.die.strike_limit_mm
    high = hand.stroke((0.0, 2000.0), 0.0, 7.0, (0.0, 0.0, 50.0, 50.0), BOARD)
    low = hand.stroke((0.0, 2000.0), 0.0, -7.0, (0.0, 0.0, -50.0, -50.0), BOARD)
    assert (high.strike_mm, low.strike_mm) == (half, -half)
    assert (high.spin, low.spin) == (-200.0, 200.0)


def test_deliver_draws_four_normals_for_a_flick_and_none_otherwise() -> None:
    hand = Hand(SkillLevel.CLUB)
    rng, same = np.random.default_rng(1), np.random.default_rng(1)
    flick = SupplyFlick(2, Crenelation.HIGH, (0.0, 900.0), 0.0, 6)
    out = hand.deliver(flick, rng, BOARD)
    z = same.standard_normal(HAND_DRAWS)
    assert out == hand.deliver_z(flick, list(z), BOARD)
    assert rng.bit_generator.state == same.bit_generator.state
    assert hand.deliver(Decline(), rng, BOARD) == Decline()
    assert rng.bit_generator.state == same.bit_generator.state
    for other in (BoardFlick(3, (10.0, 500.0)), SiegeShot(3, (10.0, 500.0))):
        got = hand.deliver(other, rng, BOARD)
        assert type(got) is type(other) and got.die == 3 and got.strike_mm != 0.0


@pytest.mark.parametrize("bot", [AimBot, SearchBot])
def test_the_bots_flick_through_the_hand(bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots aim a clean flick (no spin, at the centre) and hand it to
    ``Hand.deliver``, the method the window's humans flick through."""
    seen: list[Any] = []
    real = Hand.deliver

    def spy(self: Hand, action: Any, rng: Any, board: Any) -> Any:
        seen.append(action)
        return real(self, action, rng, board)

    monkeypatch.setattr(Hand, "deliver", spy)
    kw = {"candidates": 3, "samples": 1} if bot is SearchBot else {}
    game = Game(GameConfig(BOARD, 2, HouseRules()))
    action = bot(SkillLevel.CLUB, **kw).choose(
        game.state, game.legal_actions(), np.random.default_rng(0)
    )
    assert seen and isinstance(action, SupplyFlick)
    aimed = seen[-1]
    assert aimed.spin == 0.0 and aimed.strike_mm == 0.0
    assert action.strike_mm != 0.0 and action.spin != 0.0
    assert math.hypot(*action.velocity) != pytest.approx(math.hypot(*aimed.velocity), abs=1e-9)


def test_player_rngs_needs_a_player() -> None:
    """Guards ``player_rngs``'s bound (``players < 1``; ``< 0`` gave a game
    of no players an empty list of generators and no error): one generator a
    player, at least one."""
    from warlords_sim.bots import player_rngs

    with pytest.raises(ValueError, match="at least one player"):
        player_rngs(3, 0)
    assert len(player_rngs(3, 1)) == 1 and len(player_rngs(3, 4)) == 4


def test_the_random_bot_sets_every_face_from_the_supply() -> None:
    """Guards the random bot's face draw (``integers(1, 7)``: 1..6; an
    ``integers(1, 6)`` never set a 6, the General). A die from the supply is
    set with any of its six faces up; in 300 first-turn choices (only a
    supply flick is legal) each face 1..6 is chosen, and nothing else."""
    from warlords_sim.bots import make_bot

    g = Game(GameConfig(BOARD, 2))
    legal = g.legal_actions()
    assert legal.supply_spots and not legal.board_dice and not legal.can_decline
    bot = make_bot("random")
    rng = np.random.default_rng(7)
    faces = set()
    for _ in range(300):
        action = bot.choose(g.state, legal, rng)
        assert isinstance(action, SupplyFlick)
        faces.add(action.face)
    assert faces == {1, 2, 3, 4, 5, 6}


def test_the_random_bot_moves_no_ring_pin_without_an_open_hole() -> None:
    """Guards the random bot's ring option (``ring_pins and open_holes``; an
    ``or`` offered a ring pin move with nowhere to put the pin, and drawing a
    hole from none raised). The Center Ring: a pin is moved "to any open
    hole": with ring pins but no open hole the bot declines."""
    import dataclasses

    from warlords_sim.bots import make_bot
    from warlords_sim.rules import PendingKind
    from warlords_sim.rules.game import Pending

    g = Game(GameConfig(BOARD, 2))
    legal = dataclasses.replace(
        g.legal_actions(),
        pending=Pending(PendingKind.RING, 0),
        supply_spots=(),
        ring_pins=(0, 1, 2),
        open_holes=(),
        can_decline=True,
    )
    bot = make_bot("random")
    rng = np.random.default_rng(11)
    for _ in range(50):
        assert isinstance(bot.choose(g.state, legal, rng), Decline)
