"""The Vectorize tab: PNG or JPG figures → editable SVG through CraftEditor, many at a time."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import streamlit as st
from PIL import Image, ImageDraw, ImageFont

from crafter.ui import edits, services
from crafter.ui.header import empty_state
from crafter.ui.messages import flash, show_error
from crafter.ui.preview import show_figure
from crafter.ui.sanitize import md, raster_html
from crafter.ui.state import go_to, workspace
from crafter.ui.uploads import check_image


def render() -> None:
    st.caption("Turn PNG or JPG figures into editable SVG: text stays text, boxes and arrows become "
               "components you can edit like any generated figure.")
    ups = st.file_uploader("PNG or JPG figures", accept_multiple_files=True,
                           key="vectorize_upload")
    if st.button("Convert to SVG", key="vectorize", type="primary", disabled=not ups):
        run_vectorize(ups)
    results = st.session_state["vectorized"]
    if not results:
        if not ups:
            empty_state("Drop one or many figures above, then press <b>Convert to SVG</b>.")
        return
    done = [(name, res) for name, _, res in results if res.svg]
    if len(done) > 1 or (done and len(results) > 1):
        st.download_button(f"Download all {len(done)} SVGs (zip)", data=services.svgs_zip(
            [(n, r.svg) for n, r in done]), file_name="crafter-svgs.zip", mime="application/zip",
            on_click="ignore", key="vectorize_zip", icon=":material/folder_zip:")
    for i, (name, original, res) in enumerate(results):
        st.markdown(f"#### {md(name)}")
        if res.error:
            st.error(f"Not converted: {md(res.error)}", icon=":material/error:")
            continue
        unsure = services.unsure_words(res.scores)
        c1, c2 = st.columns(2, gap="medium")
        with c1:
            shown, caption = original, "Original"
            if unsure:
                shown, caption = marked(original, unsure), "Original: words read unsurely are boxed in orange"
            st.html(raster_html(shown, alt=f"Original {name}", caption=caption).replace(
                "<img ", '<img style="max-height:420px" ', 1))
        with c2:
            show_figure(res.svg, alt=f"Vectorised {name}", caption="Editable SVG", max_height="420px", zoom=1.0)
        show_scores(res.scores)
        show_unsure(unsure)
        b1, b2, _ = st.columns([1, 1, 3])
        b1.button("Edit this figure", key=f"vec_edit_{i}", on_click=edit_vectorized, args=(i,),
                  icon=":material/edit:", width="stretch")
        b2.download_button("Download SVG", data=res.svg, file_name=services.file_stem(name.rsplit(".", 1)[0]) + ".svg",
                           mime="image/svg+xml", on_click="ignore", key=f"vec_dl_{i}",
                           icon=":material/download:", width="stretch")


# -- callbacks (run before the page is drawn) ---------------------------------------------


def edit_vectorized(i: int) -> None:
    name, _, res = st.session_state["vectorized"][i]
    edits.take_vectorized(workspace(), res, f"vectorised {name}")
    flash("success", f"**{md(name)}** is now the figure being edited.")
    go_to("edit")


# -- pieces -------------------------------------------------------------------------------


def show_scores(scores: dict[str, Any]) -> None:
    lines = services.score_lines(scores)
    metrics = [(k, v) for k, v in lines if k != "Components"]
    if metrics:
        for col, (label, value) in zip(st.columns(len(metrics)), metrics):
            col.metric(label, value)
    comps = dict(lines).get("Components")
    if comps:
        st.caption(f"Recovered: {comps}")
    skipped = scores.get("over_budget")
    if isinstance(skipped, list) and skipped:  # CraftEditor's time budget ran out on this figure
        st.info(f"This figure reached its time budget: {md(', '.join(str(x) for x in skipped))} skipped, their ink "
                "kept as traced paths (raise the budget with CraftEditor's `timeout` option).", icon=":material/timer:")


UNSURE_SHOWN = 30  # words listed by name; the rest are counted
ORANGE = (230, 120, 0)  # the boxes around unsure words on the original


def show_unsure(unsure: list[services.UnsureWord]) -> None:
    """The words to check by eye: text kept as text can still be misread text."""
    if not unsure:
        return
    listed = ", ".join(f"**{i}** «{md(u.text)}» ({u.score:.0%}{f', maybe «{md(u.maybe)}»' if u.maybe else ''})"
                       for i, u in enumerate(unsure[:UNSURE_SHOWN], 1))
    more = f", and {len(unsure) - UNSURE_SHOWN} more" if len(unsure) > UNSURE_SHOWN else ""
    st.warning(f"The reader was unsure of {len(unsure)} word{'s' if len(unsure) != 1 else ''}; check "
               f"{'them' if len(unsure) != 1 else 'it'} in the SVG (numbered on the original, least sure first): "
               f"{listed}{more}.", icon=":material/spellcheck:")


def on_page(im: Image.Image) -> Image.Image:
    """The image as RGB on the page it was drawn for: a transparent figure flattened onto white, or onto
    a dark grey where its visible ink is light (drawn for a dark page). A plain RGB conversion showed the
    colour hidden under its transparent pixels (a TikZ export's page came out dark green)."""
    if im.mode not in ("RGBA", "LA", "PA") and "transparency" not in im.info:
        return im.convert("RGB")
    rgba = im.convert("RGBA")
    px = np.asarray(rgba)
    seen = px[..., 3] > 127
    light = seen.any() and float(px[..., :3][seen].mean()) > 180
    page = Image.new("RGBA", rgba.size, (34, 34, 34, 255) if light else (255, 255, 255, 255))
    return Image.alpha_composite(page, rgba).convert("RGB")


def marked(original: bytes, unsure: list[services.UnsureWord]) -> bytes:
    """The original with each unsure word boxed in orange and numbered (as PNG); the original
    itself when it cannot be read."""
    try:
        im = Image.open(io.BytesIO(original))
        im.load()
    except (OSError, ValueError):
        return original
    im = on_page(im)
    draw = ImageDraw.Draw(im)
    line = max(2, round(max(im.size) / 500))
    font = ImageFont.load_default(size=max(13, 7 * line))
    for i, u in enumerate(unsure[:UNSURE_SHOWN], 1):
        x, y, w, h = u.box
        draw.rectangle([x - line, y - line, x + w + line, y + h + line], outline=ORANGE, width=line)
        # the number on an orange tab above the box's left corner (inside the image)
        l, t, r, b = draw.textbbox((0, 0), str(i), font=font)
        tx, ty = max(0, x - line), max(0, y - line - (b - t) - 3 * line)
        draw.rectangle([tx, ty, tx + (r - l) + 2 * line, ty + (b - t) + 2 * line], fill=ORANGE)
        draw.text((tx + line - l, ty + line - t), str(i), fill="white", font=font)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def run_vectorize(ups: list[Any]) -> None:
    results = []
    bar = st.progress(0.0, text="Starting CraftEditor…")
    for i, up in enumerate(ups):
        bar.progress(i / len(ups), text=f"Converting {up.name} ({i + 1} of {len(ups)})…")
        data = up.getvalue()
        try:
            check_image(up.name, data)
            res = services.vectorize(data, up.name)
        except services.FeatureUnavailable as e:
            bar.empty()
            show_error(e)
            return
        except Exception as e:  # noqa: BLE001 - one bad file does not stop the batch
            res = services.Vectorized(name=up.name, error=services.user_message(e))
        results.append((up.name, data, res))
    n_ok = sum(1 for _, _, r in results if r.svg)
    bar.progress(1.0, text=f"Converted {n_ok} of {len(ups)} figure{'s' if len(ups) != 1 else ''}.")
    st.session_state["vectorized"] = results
