"""The report's plots are laid out once by ``plots._fit`` (no layout engine): every label inside the figure,
no two axes' labels over each other, the figure legend below the axes."""

from __future__ import annotations

import io
import itertools

import pytest

pytest.importorskip("matplotlib")

from khrap.sim import plots  # noqa: E402

LONG = "Хрáп втёмную с перехватом у сдающего"  # a long display name: the left margin has to grow for it


def _fitted(build) -> tuple:
    """A figure built by ``build(fig)`` under the report's style, placed by ``_fit``, and its SVG renderer."""
    import matplotlib
    from matplotlib.backends.backend_svg import RendererSVG

    with matplotlib.rc_context(plots.RC):
        fig = build()
        plots._fit(fig)
        renderer = RendererSVG(fig.get_figwidth() * 72, fig.get_figheight() * 72, io.StringIO())
        boxes = [ax.get_tightbbox(renderer) for ax in fig.get_axes()]
        legends = [legend.get_window_extent(renderer) for legend in fig.legends]
    return fig, boxes, legends


def _inside(fig, box) -> bool:
    return box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.get_figwidth() * 72 and box.y1 <= fig.get_figheight() * 72


def _bars(labels: list[str]):
    fig = plots._figure(6.4, 2.0)
    ax = fig.add_subplot()
    runs = [("Khrap", {}), ("Khrap (H)", {})]
    plots._grouped(ax, labels, runs, lambda s, lab: 3.5 if s else 1.25)
    ax.set_xlabel("times said per deal (all bidding rounds)")
    plots._legend(fig, ax)
    return fig


def test_a_long_name_moves_the_axes_right_and_stays_in_the_figure() -> None:
    short, boxes_short, _ = _fitted(lambda: _bars(["Pass", "Sad"]))
    long, boxes, legends = _fitted(lambda: _bars(["Pass", LONG]))
    assert all(_inside(long, box) for box in boxes + legends)
    assert all(_inside(short, box) for box in boxes_short)
    # the long label's width is taken from the plot's width, not cut off at the figure's edge
    assert long.get_axes()[0].get_position().x0 > short.get_axes()[0].get_position().x0 + 0.2
    assert boxes[0].x0 < 2 * plots.PAD  # and no more room than it needs on the left


def test_the_legend_sits_below_the_axes_labels() -> None:
    fig, boxes, legends = _fitted(lambda: _bars(["Pass", "Take five", "Khrap"]))
    assert len(legends) == 1
    assert legends[0].y1 <= boxes[0].y0  # the x label and ticks end above the legend
    assert legends[0].y0 >= 0


def test_a_grid_row_and_column_keep_their_labels_apart() -> None:
    def row():
        fig = plots._figure(6.4, 2.8)
        axes = fig.subplots(1, 4)
        for i, ax in enumerate(axes):
            ax.bar([0, 1], [0.1 * (i + 1), 1000.0 ** i])
            ax.set_title("fairness\n(spread; 0 is fair)", fontsize=8)
        return fig

    def column():
        fig = plots._figure(6.4, 3.0)
        axes = fig.subplots(2, 1, squeeze=False, gridspec_kw={"height_ratios": [3, 1]})[:, 0]
        for ax in axes:
            ax.errorbar([0.5, -1.0], [0, 1], xerr=[[0.2, 0.3], [0.1, 0.4]], fmt="o")
            ax.set_yticks([0, 1], [LONG, "deals dealt again"])
            ax.set_xlabel("change, percentage points (95% interval)")
        return fig

    for build in (row, column):
        fig, boxes, _ = _fitted(build)
        assert all(_inside(fig, box) for box in boxes)
        for a, b in itertools.pairwise(boxes):  # neighbours in the grid: apart (side by side or one above)
            assert a.x1 <= b.x0 or b.y1 <= a.y0, (build.__name__, a, b)
    heights = [ax.get_position().height for ax in fig.get_axes()]
    assert heights[0] == pytest.approx(3 * heights[1])  # the column's height ratios kept
