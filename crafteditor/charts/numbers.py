"""Numbers as charts print them: tick and value labels read back into floats."""

from __future__ import annotations

import datetime
import functools
import re

import dateutil.parser

from crafter.charts.scales import time_label, time_unit

_NUM = re.compile(r"^[−\-–+]?\d+(?:[.,]\d+)?(?:[eE][−\-+]?\d+)?%?$")
_UNIT = re.compile(r"^([−\-–+]?\d+(?:\.\d+)?)([A-Za-zµμ]{1,3}(?:/[A-Za-z]{1,3})?)$")


_DECIMAL_COMMA = re.compile(r"^[−\-–+]?\d+,\d{1,2}%?$")
# matplotlib's minor log ticks, '3 × 10¹', read flat: '3×101', '6×10°' (the raised 0 a degree sign)
_TIMES_TEN = re.compile(r"^([−\-–+]?\d+(?:\.\d+)?)[x×]10([−\-–]?\d{1,2}|[°º])[\-–]?$")


def times_ten(text: str) -> bool:
    """A label written as a multiple of a power of ten, '3 × 10¹' (matplotlib's minor log ticks)."""
    return _TIMES_TEN.match(text.strip().replace(" ", "")) is not None


# a pure reading of a label, asked of each run's text again per layer and panel (five dev chart pages: 11,000
# calls, 0.4 of their 24 CPU-s profiled)
@functools.lru_cache(maxsize=4096)
def parse_number(text: str) -> float | None:
    t = text.strip().replace(" ", "")
    sci = _TIMES_TEN.match(t)
    if sci is not None:
        e = sci.group(2)
        return float(sci.group(1).replace("−", "-").replace("–", "-")) * 10.0 ** (
            0 if e in "°º" else int(e.replace("−", "-").replace("–", "-")))
    # a comma before one or two digits is no thousands separator: a decimal comma ('2,5'), or
    # OCR's reading of a point ('4,0' among '3.0 5.0' had been 40, and the axis fit lost)
    t = t.replace(",", ".") if _DECIMAL_COMMA.match(t) else t
    t = t.replace("−", "-").replace("–", "-").replace(",", "")
    if len(t) > 1 and t.endswith("-") and t[-2].isdigit():
        t = t[:-1]  # the tick mark beside a y label, read with it ('80 -')
    t = t.rstrip("%")
    if len(t) > 1 and t[-1] in "x×" and t[-2].isdigit():
        t = t[:-1]  # a factor ('12x': seaborn benchmarks relative to a baseline)
    unit = _UNIT.match(t)
    if unit is not None and unit.group(2) not in ("k", "K", "M", "B", "e", "E"):
        t = unit.group(1)  # a unit after the number ('40 MB/s', '2s', '10 ms'): the number
    for suffix, mult in (("k", 1e3), ("K", 1e3), ("M", 1e6), ("B", 1e9)):
        if t.endswith(suffix) and _NUM.match(t[:-1] or "x"):
            try:
                return float(t[:-1]) * mult
            except ValueError:
                return None
    if not _NUM.match(t):
        return None
    try:
        return float(t)
    except ValueError:
        return None


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = re.compile(r"^(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?"
                    r"|nov(ember)?|dec(ember)?)\.?$", re.I)
_YEAR = re.compile(r"^(1[6-9]|2[0-2])\d\d$")
_CLOCK = re.compile(r"^\d{1,2}:\d\d(?::\d\d)?(?:\s*[ap]\.?m\.?)?$", re.I)
_ISO = re.compile(r"^\d{4}[-/]\d{1,2}(?:[-/]\d{1,2})?(?:[ T]\d{1,2}:\d\d(?::\d\d)?)?$")
_EPOCH = datetime.datetime(1970, 1, 1)


def _date_of(text: str, year: int | None) -> tuple[datetime.datetime, bool] | None:
    """One tick label as (a time, whether it names its year); None where it is no date. A month
    alone ('Apr', 'April') takes ``year``; a time of day alone ('12:00') falls on 1970-01-01 (and the
    day after where the hours wrap, see :func:`parse_dates`)."""
    t = text.strip().replace("−", "-").replace("–", "-")
    if _YEAR.match(t):
        return datetime.datetime(int(t), 1, 1), True
    if _CLOCK.match(t):
        return dateutil.parser.parse(t, default=_EPOCH), False
    if _MONTH.match(t):
        if year is None:
            return None
        return datetime.datetime(year, _MONTHS.index(t[:3].lower()) + 1, 1), False
    words = t.replace(",", " ").split()
    has_month = any(_MONTH.match(w) for w in words)
    if not (_ISO.match(t) or (has_month and len(words) >= 2)):
        return None  # a label must name a month or be an ISO date: '5', 'Q3', 'v1.2' are no dates
    default = datetime.datetime(year or 1970, 1, 1)
    try:
        when = dateutil.parser.parse(t, default=default)
    except (ValueError, OverflowError):
        return None
    names_year = _ISO.match(t) is not None or any(_YEAR.match(w) or re.fullmatch(r"'\d\d", w) for w in words)
    return when, names_year


def parse_dates(labels: list[str]) -> list[float | None]:
    """A time axis's tick labels, left to right, in days since 1970-01-01 (None for a label that
    is no date): 'Jan 2020', '2020-03', '12:00', 'Mar 05' and the year, month, month … of Vega-Lite
    and matplotlib's concise dates ('2005', 'Apr', 'Jul', 'Oct', '2006'), a month alone taking the
    year last named (the next year once the months wrap round), months before the first year named
    counted back from it ('May', 'September', '1994': 1993's). All None unless some label names
    a month, an ISO date or a time of day: years alone are plain numbers, and months alone with no
    year (bars over 'Jan' … 'Dec') are categories, as are days with no year ('Mar 08', 'Mar 15'); times
    of day alone ('12:00', '18:00') fall on 1970-01-01."""
    out: list[float | None] = []
    year: int | None = None
    last: datetime.datetime | None = None
    dated, named, clocks = False, False, True
    for text in labels:
        got = _date_of(text, year)
        if got is None:
            out.append(None)
            continue
        when, names_year = got
        if not names_year and last is not None and when < last:
            # the months wrapped into the next year, the hours into the next day
            clock = _CLOCK.match(text.strip()) is not None
            when = when.replace(year=last.year, month=last.month, day=last.day) if clock else when
            when = when + datetime.timedelta(days=1) if clock and when < last else when
            when = when.replace(year=when.year + 1) if not clock else when
        dated = dated or not _YEAR.match(text.strip())
        clocks = clocks and _CLOCK.match(text.strip()) is not None
        named = named or (names_year and _CLOCK.match(text.strip()) is None)
        year, last = when.year, when
        out.append((when - _EPOCH).total_seconds() / 86400.0)
    # months before the first year named ('May', 'September', '1994'): counted back from it
    first = next((i for i, d in enumerate(out) if d is not None), None)
    for i in range(first or 0, 0, -1):
        m = _MONTH.match(labels[i - 1].strip())
        if m is None or out[i] is None:
            break
        after = _EPOCH + datetime.timedelta(days=out[i])
        when = datetime.datetime(after.year, _MONTHS.index(m.group(1)[:3].lower()) + 1, 1)
        when = when.replace(year=when.year - 1) if when >= after else when
        out[i - 1], dated = (when - _EPOCH).total_seconds() / 86400.0, True
    # days with no year named anywhere ('Mar 08', 'Mar 15'): no date to give (1970 would be made up)
    return out if dated and (named or clocks) else [None] * len(labels)


def date_text(days: float, span_days: float) -> str:
    """Days since 1970-01-01 as ISO text: the date, and the time of day where the axis spans
    under a few days."""
    when = _EPOCH + datetime.timedelta(days=days)
    if span_days < 3:
        return when.strftime("%Y-%m-%dT%H:%M")
    return when.strftime("%Y-%m-%d")



# d3-time-format patterns a time axis's labels are written in, a year only where it is shown
_TIME_FORMATS = ("%b %Y", "%B %Y", "%Y-%m", "%Y-%m-%d", "%b %d, %Y", "%d %b %Y", "%m/%d/%Y", "%b %d", "%a %d",
                 "%H:%M", "%I:%M", "%I %p", "%Y-%m-%d %H:%M", "%b", "%B", "%Y", "%d")


def time_format(dates: list[tuple[float, str]]) -> str | dict[str, str] | None:
    """The d3-time-format that writes a time axis's ticks (days since 1970-01-01, label as read)
    as the figure wrote them: one pattern every label comes back in ('Jan 2020', '2020-03',
    '12:00'), else Vega's time multi-format, a pattern for each unit the ticks start (matplotlib's
    and Vega's concise labels: {"year": "%Y", "quarter": "%b"} for '2005', 'Apr', 'Jul'; Vega's own
    'December', '1994', 'February': "%B"); None where no pattern writes some unit's labels."""
    if len(dates) < 2:
        return None
    ticks = [(d * 86_400_000.0, " ".join(t.split()).lower()) for d, t in dates]

    def writes(f: str | dict[str, str], some: list[tuple[float, str]]) -> bool:
        return all(time_label(v, f).lower() == t for v, t in some)

    one = next((f for f in _TIME_FORMATS if writes(f, ticks)), None)
    if one is not None:
        return one
    units: dict[str, list[tuple[float, str]]] = {}
    for v, t in ticks:
        units.setdefault(time_unit(datetime.datetime.fromtimestamp(v / 1000, datetime.timezone.utc)), []).append((v, t))
    multi = {u: next((f for f in _TIME_FORMATS if writes(f, some)), None) for u, some in units.items()}
    return {u: f for u, f in multi.items() if f is not None} if all(multi.values()) else None
