"""Verify a replay: re-simulate it headless and compare every digest."""

from __future__ import annotations

from dataclasses import dataclass, field

from warlords_sim.board import Board
from warlords_sim.replay.claims import (
    first_difference,
    recorded_result,
    result_claims,
    where_differs,
)
from warlords_sim.replay.errors import clip
from warlords_sim.replay.loader import Replay
from warlords_sim.replay.rebuild import ClaimMismatch, Divergence, Replayer, version_notes

__all__ = ["VerifyReport", "verify"]


@dataclass
class VerifyReport:
    """What :func:`verify` found.

    Attributes:
        versions: how the recording's versions differ from those running now.
        warnings: the board's SHA-256 (with force), a cut-off last line.
        checked: actions replayed; total: actions in the file.
        divergence: the first diverging action, if any.
        mismatch: the first line whose digest holds but another claim
            (summary, dice, gone, player, index) does not, if any.
        result: the first field of the closing line that differs from the
            re-derived one (actions, digest, winners, totals, rounds), if any.
    """

    file: str
    versions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    checked: int = 0
    total: int = 0
    divergence: Divergence | None = None
    mismatch: ClaimMismatch | None = None
    result: str | None = None
    finished: bool = False

    @property
    def ok(self) -> bool:
        return self.divergence is None and self.mismatch is None and self.result is None

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "ok": self.ok,
            "actions": self.total,
            "checked": self.checked,
            "finished": self.finished,
            "versions_differ": self.versions,
            "warnings": self.warnings,
            "first_divergence": None if self.divergence is None else self.divergence.as_json(),
            "first_claim_differs": None if self.mismatch is None else self.mismatch.as_json(),
            "result_differs": self.result,
        }


def verify(
    replay: Replay, *, board: Board | None = None, force: bool = False, until: int | None = None
) -> VerifyReport:
    """Replay every action (or the first ``until``) and compare digests;
    stops at the first divergence.

    Raises:
        ModelMismatch: made with another physics model (nothing is simulated).
        ReplayError: the board differs (unless ``force``), an action is refused.
    """
    rep = VerifyReport(str(replay.path), version_notes(replay), list(replay.warnings))
    rep.total = len(replay.actions)
    rp = Replayer(replay, board=board, force=force)
    if rp.board_warning:
        rep.warnings.append(rp.board_warning)
    n = rep.total if until is None else min(until, rep.total)
    step = rp.step
    for _ in range(n):
        div = step()
        rep.checked += 1
        if div is not None:
            rep.divergence = div
            return rep
        if rp.mismatch is not None:
            rep.mismatch = rp.mismatch
            return rep
    res = replay.result
    if res is not None and n == rep.total:
        rep.finished = True
        if rp.game is not None and not rp.game.state.over:
            rep.result = "the result differs: the game is not over after the last action"
            return rep
        lineno = rep.total + 2
        # a sandbox may end without a final state (digest null); a game may not
        target = rp.target if res.digest is not None or rp.game is not None else None
        found = first_difference(recorded_result(res), result_claims(rep.total, target))
        if found is not None:
            name, was, now = where_differs(found[1], found[2], found[0])
            rep.result = (
                f"the result differs: line {lineno}: field `{name}`: recorded "
                f"{clip(repr(was))}, replayed {clip(repr(now))}"
            )
    return rep
