"""Verify a replay: re-simulate it headless and compare every digest."""

from __future__ import annotations

from dataclasses import dataclass, field

from warlords_sim.board import Board
from warlords_sim.replay.loader import Replay
from warlords_sim.replay.rebuild import Divergence, Replayer, version_notes
from warlords_sim.replay.snapshot import digest_of

__all__ = ["VerifyReport", "verify"]


@dataclass
class VerifyReport:
    """What :func:`verify` found.

    Attributes:
        versions: how the recording's versions differ from those running now.
        warnings: the board's SHA-256 (with force), a cut-off last line.
        checked: actions replayed; total: actions in the file.
        divergence: the first diverging action, if any.
        result: a difference in the closing line (totals, winners, digest), if any.
    """

    file: str
    versions: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    checked: int = 0
    total: int = 0
    divergence: Divergence | None = None
    result: str | None = None
    finished: bool = False

    @property
    def ok(self) -> bool:
        return self.divergence is None and self.result is None

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
    res = replay.result
    if res is not None and n == rep.total:
        rep.finished = True
        problems = []
        if res.digest is not None and res.digest != digest_of(rp.target):
            problems.append("final digest")
        if rp.game is not None:
            st = rp.game.state
            if not st.over:
                problems.append("the game is not over after the last action")
            if res.totals and res.totals != st.totals:
                problems.append(f"totals {st.totals} replayed, {res.totals} recorded")
            if res.totals and res.winners != list(st.winners):
                problems.append(f"winners {list(st.winners)} replayed, {res.winners} recorded")
        if problems:
            rep.result = "the result differs: " + "; ".join(problems)
    return rep
