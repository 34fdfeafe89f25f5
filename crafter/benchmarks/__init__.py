"""Every ``crafter bench …`` command's measurement, one module each; numbers are printed, never asserted.

| command | module |
|---|---|
| ``crafter bench render`` | :mod:`crafter.benchmarks.render` (also ``python -m crafter.benchmarks.render``) |
| ``crafter bench chart`` | :mod:`crafter.benchmarks.charts` |
| ``crafter bench decode`` | :mod:`crafter.benchmarks.decode` |
| ``crafter bench pipeline`` | :mod:`crafter.benchmarks.pipeline` |
| ``crafter bench export`` | :mod:`crafter.benchmarks.exports` |
"""
