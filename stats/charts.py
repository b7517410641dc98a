"""Charts drawn by the server as SVG: no script, no library, readable on a phone.

Each function returns SVG markup (already escaped) that scales to its container's width
(``viewBox``; the CSS sets ``width: 100%``). Colours come from CSS classes (static/css/stats.css),
never ``style`` attributes (the Content Security Policy). Every chart has a ``<title>`` for
screen readers, and the page puts the same numbers in a table beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

W, H = 480, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 10, 18, 38


def _frame(chart_id: str, title: str, body: list[str]) -> SafeString:
    head = (
        f'<svg class="chart" id="{escape(chart_id)}" viewBox="0 0 {W} {H}" role="img" '
        f'aria-labelledby="{escape(chart_id)}-title" preserveAspectRatio="xMidYMid meet">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
    )
    return mark_safe(head + "".join(body) + "</svg>")  # noqa: S308 - every text is escaped


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1.0
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if value <= step * 5:
            return float(step * 5 if value > step * 4 else step * 4)
    return float(value)


def _axis(lo: float, hi: float, fmt: str = "{:g}") -> list[str]:
    out = []
    for i in range(5):
        v = lo + (hi - lo) * i / 4
        y = H - BOTTOM - (H - TOP - BOTTOM) * i / 4
        out.append(f'<line class="grid" x1="{LEFT}" x2="{W - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>')
        out.append(
            f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(fmt.format(v))}</text>"
        )
    return out


def bar_chart(
    chart_id: str,
    title: str,
    labels: Sequence[str],
    values: Sequence[float | None],
    *,
    fmt: str = "{:g}",
    top: float | None = None,
) -> SafeString:
    """Vertical bars, one per label (None: no bar), value printed over each."""
    hi = top if top is not None else _nice_max(max((v or 0) for v in values) if values else 0)
    body = _axis(0, hi, "{:g}")
    n = max(len(labels), 1)
    slot = (W - LEFT - RIGHT) / n
    plot_h = H - TOP - BOTTOM
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        width = min(slot * 0.7, 90)
        cx = LEFT + slot * (i + 0.5)
        x = cx - width / 2
        body.append(
            f'<text class="label" x="{cx:.1f}" y="{H - BOTTOM + 18}" text-anchor="middle">'
            f"{escape(label)}</text>"
        )
        if value is None:
            continue
        h = plot_h * min(value, hi) / hi
        y = H - BOTTOM - h
        body.append(
            f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{h:.1f}"/>'
        )
        body.append(
            f'<text class="value" x="{cx:.1f}" y="{y - 4:.1f}" text-anchor="middle">'
            f"{escape(fmt.format(value))}</text>"
        )
    return _frame(chart_id, title, body)


def stacked_bars(
    chart_id: str,
    title: str,
    labels: Sequence[str],
    stacks: Sequence[Sequence[int]],
    parts: Sequence[str],
) -> SafeString:
    """One bar per label, split into ``parts`` (as shares of the bar's total), a legend below."""
    body = _axis(0, 100, "{:g}%")
    n = max(len(labels), 1)
    slot = (W - LEFT - RIGHT) / n
    for i, (label, stack) in enumerate(zip(labels, stacks, strict=True)):
        width = min(slot * 0.7, 90)
        cx = LEFT + slot * (i + 0.5)
        x = cx - width / 2
        body.append(
            f'<text class="label" x="{cx:.1f}" y="{H - BOTTOM + 16}" text-anchor="middle">'
            f"{escape(label)}</text>"
        )
        total = sum(stack)
        if not total:
            continue
        y = float(H - BOTTOM)
        for k, count in enumerate(stack):
            if not count:
                continue
            h = (H - TOP - BOTTOM) * count / total
            y -= h
            body.append(
                f'<rect class="part part-{k}" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
                f'height="{h:.1f}"><title>{escape(label)}: {escape(parts[k])} {count}</title></rect>'
            )
    legend_y = H - 6
    step = (W - LEFT - RIGHT) / max(len(parts), 1)
    for k, part in enumerate(parts):
        lx = LEFT + step * k
        body.append(
            f'<rect class="part part-{k}" x="{lx:.1f}" y="{legend_y - 9}" width="10" height="10"/>'
        )
        body.append(f'<text class="legend" x="{lx + 13:.1f}" y="{legend_y}">{escape(part)}</text>')
    return _frame(chart_id, title, body)


def thin(points: Sequence[tuple[int, float]], most: int) -> list[tuple[int, float]]:
    """At most ``most`` of ``points``, evenly spread, the first and the last kept.

    >>> thin([(i, i) for i in range(10)], 4)
    [(0, 0), (3, 3), (6, 6), (9, 9)]
    """
    if len(points) <= most:
        return list(points)
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


def line_chart(
    chart_id: str,
    title: str,
    series: Mapping[str, Sequence[tuple[int, float]]],
    *,
    fmt: str = "{:.0f}",
    x_label: str = "rated game",
    pad_least: float = 10,
) -> SafeString:
    """One line per series; a point is ``(x, value)`` with x the game's number in a common
    order (so series of different rulesets share the time axis), named ``x_label`` at both
    ends; the value axis reaches ``pad_least`` (or a tenth of the range) past the values."""
    values = [v for points in series.values() for _, v in points]
    if not values:
        return _frame(chart_id, title, [])
    lo, hi = min(values), max(values)
    pad = max((hi - lo) * 0.1, pad_least)
    lo, hi = lo - pad, hi + pad
    body = _axis(lo, hi, fmt)
    last = max(x for points in series.values() for x, _ in points)
    span = max(last, 1)
    plot_w = W - LEFT - RIGHT
    plot_h = H - TOP - BOTTOM
    for k, (name, points) in enumerate(series.items()):
        coords = [
            (LEFT + plot_w * x / span, H - BOTTOM - plot_h * (v - lo) / (hi - lo))
            for x, v in points
        ]
        if len(coords) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
            body.append(f'<polyline class="line line-{k}" points="{path}"/>')
        for x, y in coords:
            body.append(f'<circle class="dot line-{k}" cx="{x:.1f}" cy="{y:.1f}" r="3"/>')
        body.append(
            f'<text class="legend line-{k}" x="{LEFT + 4 + 120 * k}" y="{H - 6}">'
            f"{escape(name)}: {escape(fmt.format(points[-1][1]))}</text>"
        )
    if last:  # one game: its label at the start only, not "rated game 1" twice
        body.append(
            f'<text class="label" x="{W - RIGHT}" y="{H - BOTTOM + 16}" text-anchor="end">'
            f"{escape(x_label)} {last + 1}</text>"
        )
    body.append(f'<text class="label" x="{LEFT}" y="{H - BOTTOM + 16}">{escape(x_label)} 1</text>')
    return _frame(chart_id, title, body)
