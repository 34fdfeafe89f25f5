"""Remaking CraftEditor's shipped models (``make reader``): the reader's pages, training and parity gate.

These modules sit above :mod:`crafteditor.ocr`: the training crops are cut exactly as a
figure's lines are cut when it is read (:func:`crafteditor.ocr.text_lines.line_jobs`).
"""
