"""A bar chart drawn once and then updated in place, rendered to PNG bytes for an Image widget.

Redrawing a whole matplotlib figure costs tens of milliseconds, mostly laying out tick
labels. Here the static part (axes, ticks, labels, legend) is drawn once per title, y
label and y range into a cached background; an update restores that background and draws
only the bars and marker lines (matplotlib's blitting technique), then writes the pixels
as a PNG with zlib at low compression (plots are mostly flat colour, so they compress
well anyway, and this is several times faster than a general-purpose encoder). The PNG of
each state (axes, bars, lines) is kept, so a state shown before (a verdict flipped back, an
order undone) costs no drawing at all. The result is
an ``image/png`` payload that JupyterLab, VS Code and Colab all show (never SVG).
matplotlib is imported when a chart is built, not when this module is imported.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from typing import Any, Sequence

RELEVANT, IRRELEVANT = "#2a9d8f", "#c8c8c8"
RELEVANT_OUTSIDE, IRRELEVANT_OUTSIDE = "#b5dcd6", "#ececec"
MARKER, ACCENT = "#e76f51", "#264653"
#: The charts' size on screen (px) and their resolution: drawn at the size they are shown, so their
#: text is the 10-12 px it is set to (8-9 pt at 96 dpi), never scaled down.
PLOT_WIDTH_PX, PLOT_HEIGHT_PX, PLOT_DPI = 440, 210, 96


class BarChart:
    """Bars at fixed positions whose heights and colours change, plus named marker lines.

    ``lines`` maps a name to ``("h" | "v", colour, linestyle, label)``: horizontal or
    vertical lines shown with :meth:`set_line` (hidden while their value is None).
    ``ypercent`` labels the y axis in percent (for shares).
    """

    def __init__(
        self,
        x: Sequence[float],
        *,
        width: float = 0.8,
        title: str = "",
        xlabel: str = "",
        ylabel: str = "",
        ylim: tuple[float, float] = (0.0, 1.05),
        xlim: tuple[float, float] | None = None,
        xticks: Sequence[float] | None = None,
        xticklabels: Sequence[str] | None = None,
        legend: Sequence[tuple[str, str]] = (),
        lines: dict[str, tuple[str, str, str, str]] | None = None,
        ypercent: bool = False,
        size: tuple[float, float] = (PLOT_WIDTH_PX / PLOT_DPI, PLOT_HEIGHT_PX / PLOT_DPI),
        dpi: int = PLOT_DPI,
    ) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg  # lazy: matplotlib loads only when drawing
        from matplotlib.figure import Figure  # lazy: matplotlib loads only when drawing
        from matplotlib.patches import Patch  # lazy: matplotlib loads only when drawing

        self.figure = Figure(figsize=size, dpi=dpi)
        self._canvas = FigureCanvasAgg(self.figure)
        self.figure.subplots_adjust(left=0.14, right=0.98, bottom=0.22, top=0.78)
        self.ax = ax = self.figure.add_subplot()
        self._bars = list(ax.bar(list(x), [0.0] * len(x), width, color=IRRELEVANT, edgecolor="#555555",
                                 linewidth=0.8, animated=True))
        self._lines: dict[str, tuple[str, Any]] = {}
        self._patches: list[Any] = [Patch(facecolor=colour, edgecolor="#555555", label=label)
                                    for label, colour in legend]
        self._line_keys: dict[str, Any] = {}  # a marker line's legend entry, shown only while the line is
        for name, (kind, colour, style, label) in (lines or {}).items():
            make = ax.axhline if kind == "h" else ax.axvline
            line = make(0.0, color=colour, linestyle=style, linewidth=1.6, animated=True, visible=False)
            self._lines[name] = (kind, line)
            if label:
                from matplotlib.lines import Line2D  # lazy: matplotlib loads only when drawing

                self._line_keys[name] = Line2D([], [], color=colour, linestyle=style,  # type: ignore[arg-type]
                                               linewidth=1.6, label=label)
        self._legend(())
        ax.set_ylim(*ylim)
        if xlim is not None:
            ax.set_xlim(*xlim)
        if xticks is not None:
            ax.set_xticks(list(xticks))
            if xticklabels is not None:
                ax.set_xticklabels(list(xticklabels))
        if ypercent:
            from matplotlib.ticker import PercentFormatter  # lazy: matplotlib loads only when drawing

            ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.tick_params(labelsize=8)
        ax.spines[["top", "right"]].set_visible(False)
        self._title = ax.set_title(title, loc="left", fontsize=9, pad=17)  # above the legend row
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8)
        self._backgrounds: dict[tuple[Any, ...], Any] = {}  # (title, ylabel, ylim, lines named) -> cached pixels
        self._bar_state: tuple[tuple[float, ...], tuple[str, ...] | None] = ((), None)
        self._line_state: dict[str, float | None] = {name: None for name in self._lines}
        self._pngs: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()  # state -> PNG, most recent last

    def _legend(self, shown: tuple[str, ...]) -> None:
        """The legend row: the bar colours, then the marker lines in ``shown`` (a hidden line has no entry)."""
        handles = self._patches + [self._line_keys[name] for name in shown if name in self._line_keys]
        if handles:
            self.ax.legend(handles=handles, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=len(handles),
                           frameon=False, fontsize=8, handlelength=1.4, borderaxespad=0.2)

    def set_axes(self, *, title: str | None = None, ylabel: str | None = None,
                 ylim: tuple[float, float] | None = None) -> None:
        """Change the static part (title, y label, y range); its background is drawn once per state."""
        if title is not None and title != self._title.get_text():
            self._title.set_text(title)
        if ylabel is not None and ylabel != self.ax.get_ylabel():
            self.ax.set_ylabel(ylabel, fontsize=8)
        if ylim is not None and tuple(ylim) != tuple(self.ax.get_ylim()):
            self.ax.set_ylim(*ylim)

    def set_bars(self, heights: Sequence[float], colours: Sequence[str] | None = None) -> None:
        """New bar heights (and face colours)."""
        heights, shown = tuple(float(h) for h in heights), None if colours is None else tuple(colours)
        for i, (bar, height) in enumerate(zip(self._bars, heights, strict=True)):
            bar.set_height(height)
            if shown is not None:
                bar.set_facecolor(shown[i])
        self._bar_state = (heights, self._bar_state[1] if shown is None else shown)

    def set_line(self, name: str, value: float | None) -> None:
        """Place marker line ``name`` at ``value`` (a y for "h", an x for "v"); None hides it."""
        kind, line = self._lines[name]
        line.set_visible(value is not None)
        if value is not None:
            (line.set_ydata if kind == "h" else line.set_xdata)([value, value])
        self._line_state[name] = None if value is None else float(value)

    def _state(self) -> tuple[Any, ...]:
        """Everything the picture shows: axes (title, y label, y range, which lines the legend names), bars and lines."""
        shown = tuple(name for name, value in self._line_state.items() if value is not None)
        axes = (self._title.get_text(), self.ax.get_ylabel(), tuple(self.ax.get_ylim()), shown)
        return axes, self._bar_state, tuple(self._line_state.items())

    def png(self) -> bytes:
        """The chart as PNG bytes: the kept picture of this state, else the bars and lines redrawn
        over the cached background."""
        state = self._state()
        kept = self._pngs.get(state)
        if kept is None:
            kept = self._pngs[state] = self._render(state[0])
            if len(self._pngs) > KEPT_PNGS:
                self._pngs.popitem(last=False)
        self._pngs.move_to_end(state)
        return kept

    def _render(self, key: tuple[Any, ...]) -> bytes:
        """Draw the bars and lines over the background of the axes ``key`` and encode the PNG."""
        canvas = self._canvas
        background = self._backgrounds.get(key)
        if background is None:
            self._legend(key[3])  # the lines shown in this state
            canvas.draw()  # animated artists (bars, lines) are left out of this full draw
            self._backgrounds[key] = canvas.copy_from_bbox(self.figure.bbox)
        else:
            canvas.restore_region(background)
        for bar in self._bars:
            self.ax.draw_artist(bar)
        for _, line in self._lines.values():
            if line.get_visible():
                self.ax.draw_artist(line)
        width, height = canvas.get_width_height()
        return png_rgba(canvas.buffer_rgba(), width, height)


#: PNGs a chart keeps, by state (about 20 KB each).
KEPT_PNGS = 64
#: Charts kept for :func:`shared_chart`, by configuration, most recently used last.
_SHARED: OrderedDict[str, BarChart] = OrderedDict()
#: How many configurations :func:`shared_chart` keeps (a chart holds its pixels, about a megabyte).
SHARED_CHARTS = 8


def shared_chart(x: Sequence[float], **options: Any) -> BarChart:
    """The :class:`BarChart` of this exact configuration (``x`` and the keyword arguments of
    ``BarChart``), built once and then shared by every explorer that asks for the same one.

    An explorer only takes PNG bytes from its chart, and before each :meth:`BarChart.png` it sets
    every bar, line and axis state it changes, so explorers with the same layout can draw on one
    chart in turn. The second and later skip building the figure and drawing its static part
    (about 60% of building an explorer). Charts live in the kernel's main thread, as widgets do."""
    key = repr((list(x), sorted(options.items())))
    chart = _SHARED.get(key)
    if chart is None:
        chart = _SHARED[key] = BarChart(x, **options)
        if len(_SHARED) > SHARED_CHARTS:
            _SHARED.popitem(last=False)
    _SHARED.move_to_end(key)
    return chart


def png_rgba(pixels: Any, width: int, height: int, level: int = 1) -> bytes:
    """Encode 8-bit RGBA pixels (rows top to bottom) as a PNG file.

    The format's minimum: signature, IHDR, one zlib-compressed IDAT whose rows each start
    with filter byte 0, and IEND (PNG specification, sections 5 and 11)."""
    data = memoryview(pixels).cast("B")
    stride = width * 4
    raw = b"".join(b"\x00" + data[y * stride:(y + 1) * stride].tobytes() for y in range(height))

    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8 bits, RGBA, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, level))
            + chunk(b"IEND", b""))
