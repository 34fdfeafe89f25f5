"""The app's tabs, one module each: ``render()`` draws the tab's widgets and calls the services.

``app.py`` draws them in this order: :mod:`.create`, :mod:`.edit`, :mod:`.vectorize`,
:mod:`.open`, :mod:`.runs`, :mod:`.export`, :mod:`.settings`. A tab's callbacks (what a
button does, run before the page is drawn) live in its module.
"""
