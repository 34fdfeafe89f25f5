"""Text: OCR with rapidocr's bundled ONNX models, turned into :class:`~crafteditor.ocr.runs.TextRun` records.

rapidocr gives line boxes and strings; figures need more (FIELD-NOTES: "Accuracybymodel", stacked
tick labels read as one box). The stage, in the order a figure goes through it:

* :mod:`~crafteditor.ocr.engine` — rapidocr's detector and recogniser, and the reader trained
  here in front of the recogniser; a CTC decode of its own that can refuse CJK look-alikes in
  Latin figures (``ocr_scripts='latin'``) and reports where each character sits. Loaded once
  per process (:func:`~crafteditor.ocr.engine.get_engine`);
* :mod:`~crafteditor.ocr.text_lines` — detection on the places text can be, at a scale set by
  the glyphs; boxes holding several stacked lines split; tall boxes cut into crops at each
  plausible angle, to recover rotated text (y-axis titles read bottom-to-top);
* :mod:`~crafteditor.ocr.corrections` — the reading corrected from the glyphs' ink: word spaces
  from the ink gaps, hyphen, en dash, minus and em dash by the width of the bar (the recogniser
  only knows '-' and '—'), case, zeros, symbols, stray quotes;
* :mod:`~crafteditor.ocr.font_metrics` and :mod:`~crafteditor.ocr.runs` — font size from the
  ink height and the glyph extents of the recognised string in the renderer's font (DejaVu
  Sans), weight from stroke thickness, colour from the most contrasting glyph pixels;
* :mod:`~crafteditor.ocr.lone_glyphs` — lone glyphs the detector misses (single-digit tick
  labels), found in a second pass;
* :mod:`~crafteditor.ocr.read` — all of the above over one figure (:func:`~crafteditor.ocr.read.read_text`);
* :mod:`~crafteditor.ocr.erase` — the glyph pixels explained erased, so shapes and lines are
  found without text.
"""
