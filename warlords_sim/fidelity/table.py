"""The fidelity verdict as a table: a rich table for the terminal, Markdown
for docs/physics.md. Rows are scenario x criterion, the two engines'
figures side by side, the difference against its tolerance and PASS/FAIL;
landings per flick, settle time and exits follow as unjudged figures, and,
when it was measured, the reference baseline's spread over its unmeasured
parameters (the largest over the variants, and which): a faces or P(face
changed) tolerance that is that spread says so.
Units: mm for travel, s for settle time, shares in [0, 1].
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.table import Table

from warlords_sim.fidelity.metrics import EngineStats
from warlords_sim.fidelity.suite import FidelityReport, ScenarioReport
from warlords_sim.fidelity.verdict import Check, Criterion

__all__ = ["Row", "markdown", "rich_table", "rows", "summary_line"]


@dataclass(frozen=True)
class Row:
    """One line of the table; ``verdict`` is ``"PASS"``, ``"FAIL"`` or ``""``
    (a figure that is shown but not judged)."""

    scenario: str
    criterion: str
    a: str
    b: str
    agreement: str
    verdict: str


def _mm(v: float) -> str:
    return "-" if math.isnan(v) else f"{v:.1f}"


def _whole(v: float) -> str:
    text = f"{v:.0f}"
    return "0" if text == "-0" else text


def _share(v: float) -> str:
    return "-" if math.isnan(v) else f"{v:.2f}"


def _figure(st: EngineStats, c: Criterion) -> str:
    if c is Criterion.ALONG_MEDIAN:
        return _mm(st.along.median)
    if c is Criterion.ACROSS_MEDIAN:
        return _mm(st.across.median)
    if c in (Criterion.ALONG_IQR, Criterion.ACROSS_IQR):
        s = st.along if c is Criterion.ALONG_IQR else st.across
        return "-" if math.isnan(s.iqr) else f"{s.iqr:.1f} ({_whole(s.q1)} to {_whole(s.q3)})"
    if c is Criterion.BEHIND:
        return _share(st.behind_share)
    if c is Criterion.FACE_CHANGED:
        return _share(st.face_changed)
    if c is Criterion.FACES:
        return " ".join(str(n) for n in st.faces)
    shown = ", ".join(f"{k} {n}" for k, n in st.regions[:3])
    return shown + (", ..." if len(st.regions) > 3 else "")


def _agreement(check: Check) -> str:
    c = check.criterion
    if math.isnan(check.difference):
        return "no data" if check.passed else "one side has no data"
    note = ""
    if check.widened:
        note = " (reference spread)"
    elif check.spread is not None:
        note = f" (spread {check.spread:.2f})"
    if c in (Criterion.FACES, Criterion.REGIONS):
        return f"TV {check.difference:.2f} <= {check.tolerance:.2f}{note}"
    if c in (Criterion.BEHIND, Criterion.FACE_CHANGED):
        return f"{check.difference:.2f} <= {check.tolerance:.2f}{note}"
    return f"{check.difference:.1f} <= {check.tolerance:.1f} mm"


def _widest(sr: ScenarioReport, faces: bool) -> str:
    """The reference's spread of the faces (TV) or of P(face changed): the
    largest over the variants, and which variant gave it."""
    assert sr.spread is not None
    vs = sr.spread.variants
    if not vs:
        return "-"
    v = max(vs, key=lambda x: x.faces_tv if faces else x.face_changed)
    value = v.faces_tv if faces else v.face_changed
    return f"{value:.2f} ({v.name})" if value > 0.0 else "0.00"


def _label(c: Criterion) -> str:
    units = {
        Criterion.ALONG_MEDIAN: "along median, mm",
        Criterion.ALONG_IQR: "along IQR (q1 to q3), mm",
        Criterion.ACROSS_MEDIAN: "across median, mm",
        Criterion.ACROSS_IQR: "across IQR (q1 to q3), mm",
        Criterion.FACES: "faces 1-6",
    }
    return units.get(c, c.value)


def scenario_rows(sr: ScenarioReport) -> list[Row]:
    """The rows of one scenario: its checks, then the unjudged figures."""
    a, b = sr.stats
    n_pass = sum(c.passed for c in sr.checks)
    heads = [sr.scenario.name, f"{'PASS' if sr.passed else 'FAIL'} {n_pass}/{len(sr.checks)}"]
    out: list[Row] = []
    for i, check in enumerate(sr.checks):
        out.append(
            Row(
                heads[i] if i < len(heads) else "",
                _label(check.criterion),
                _figure(a, check.criterion),
                _figure(b, check.criterion),
                _agreement(check),
                "PASS" if check.passed else "FAIL",
            )
        )
    for label, fa, fb in (
        ("landings per flick", f"{a.landings_mean:.1f}", f"{b.landings_mean:.1f}"),
        ("settle median, s", f"{a.settle_median_s:.2f}", f"{b.settle_median_s:.2f}"),
        ("exits", _share(a.exit_share), _share(b.exit_share)),
    ):
        out.append(Row("", label, fa, fb, "", ""))
    if sr.spread is not None:
        out.append(Row("", "reference spread, faces TV", "", _widest(sr, True), "", ""))
        out.append(Row("", "reference spread, P(face changed)", "", _widest(sr, False), "", ""))
    return out


def rows(report: FidelityReport) -> list[list[Row]]:
    """The table's rows, one list per scenario."""
    return [scenario_rows(sr) for sr in report.scenarios]


def summary_line(report: FidelityReport) -> str:
    """One line: how many scenarios agree, with the run's settings."""
    n = len(report.scenarios)
    ok = sum(s.passed for s in report.scenarios)
    a, b = report.engines
    spread = ""
    if report.variants:
        spread = (
            f"; the reference's spread over {', '.join(v.name for v in report.variants)} "
            "widens the faces tolerances"
        )
    return (
        f"{ok} of {n} scenarios agree: {a} against the baseline {b}, "
        f"{report.trials} noisy trials each (seed {report.seed}), board {report.board!r}{spread}"
    )


def rich_table(report: FidelityReport) -> Table:
    """A :class:`rich.table.Table` of the report (PASS green, FAIL red)."""
    a, b = report.engines
    if a == b:
        a, b = f"{a} (1)", f"{b} (2)"
    table = Table(title=summary_line(report), title_justify="left", show_lines=False)
    table.add_column("scenario", no_wrap=True)
    table.add_column("criterion", no_wrap=True)
    table.add_column(a, justify="right", no_wrap=True)
    table.add_column(f"{b} (baseline)", justify="right", no_wrap=True)
    table.add_column("|difference| <= tolerance", justify="right")
    table.add_column("verdict", justify="center")
    for group in rows(report):
        for r in group:
            style = {"PASS": "green", "FAIL": "bold red"}.get(r.verdict, "")
            head = r.scenario
            if head.startswith(("PASS", "FAIL")):
                head = f"[{'green' if head.startswith('PASS') else 'bold red'}]{head}[/]"
            verdict = f"[{style}]{r.verdict}[/]" if style else ""
            table.add_row(head, r.criterion, r.a, r.b, r.agreement, verdict)
        table.add_section()
    return table


def markdown(report: FidelityReport) -> str:
    """The same table in GitHub Markdown, preceded by a one-line summary and
    a one-row-per-scenario overview."""
    a, b = report.engines
    lines = [summary_line(report) + ".", ""]
    spread = bool(report.variants)
    extra = (" reference spread: faces TV | P(face changed) | faces / P(changed) tolerance |"
             if spread else "")  # fmt: skip
    lines += [
        f"| scenario | launch | criteria passed | verdict |{extra}",
        "|---|---|---|---|" + ("--:|--:|--:|" if spread else ""),
    ]
    for sr in report.scenarios:
        s = sr.scenario
        n_pass = sum(c.passed for c in sr.checks)
        v = math.hypot(*s.flick.velocity)
        spin = f", spin {s.flick.spin:g} rad/s" if s.flick.spin else ""
        cells = ""
        if spread and sr.spread is not None:
            tol = {c.criterion: c.tolerance for c in sr.checks}
            cells = (
                f" {_widest(sr, True)} | {_widest(sr, False)} | "
                f"{tol[Criterion.FACES]:.2f} / {tol[Criterion.FACE_CHANGED]:.2f} |"
            )
        elif spread:
            cells = " - | - | - |"
        lines.append(
            f"| {s.name} | {s.flick.launch.value} {v:g} mm/s{spin} | "
            f"{n_pass}/{len(sr.checks)} | {'PASS' if sr.passed else '**FAIL**'} |{cells}"
        )
    lines += [
        "",
        f"| scenario | criterion | {a} | {b} (baseline) | difference <= tolerance | verdict |",
        "|---|---|--:|--:|--:|:-:|",
    ]
    for group in rows(report):
        for r in group:
            verdict = "**FAIL**" if r.verdict == "FAIL" else r.verdict
            lines.append(
                f"| {r.scenario} | {r.criterion} | {r.a} | {r.b} | {r.agreement} | {verdict} |"
            )
    return "\n".join(lines) + "\n"
