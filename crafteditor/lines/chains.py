"""Skeleton pieces joined into lines: through junctions (the straightest continuation is the
crossing line) and across dash gaps (dash pieces and dots chained end to end where the gap is
short and the direction continues).
"""

from __future__ import annotations

import math

import numpy as np

from crafteditor.lines.paths import Ends, Pt, direction_out, path_length


def pair_through_junctions(pieces: list[list[Pt]], lw: float) -> list[list[Pt]]:
    """At a junction, join the two branches that continue each other straightest (crossings).

    Ends are found through :class:`Ends`, and every pass joins all the best disjoint pairs at once:
    a noisy scan has thousands of pieces, and comparing every end with every other end, one join
    per pass, was O(n^4) (minutes on one sketch).
    """
    radius = 2.5 * lw + 2
    pieces = [p for p in pieces if p]
    while True:
        index = Ends(pieces, keep=lambda p: len(p) >= 2 and math.dist(p[0], p[-1]) >= 1)
        ends = list(zip(index.owner, index.at, index.pts))

        def near(k: int) -> list[int]:
            return index.near(ends[k][2], radius)

        dirs = {(i, e): direction_out(pieces[i], e == 0) for i, e, _ in ends}
        cands = []
        for a in range(len(ends)):
            ia, ea, pa = ends[a]
            around = near(a)
            for b in around:
                if b <= a:
                    continue
                ib, eb, _ = ends[b]
                if ia == ib:
                    continue
                # a junction needs a third branch ending there too
                if not any(ends[c][0] not in (ia, ib) for c in around):
                    continue
                da, db = dirs[(ia, ea)], dirs[(ib, eb)]
                if da is None or db is None:
                    continue
                straight = -(da[0] * db[0] + da[1] * db[1])  # 1: exactly opposite directions out of the joint
                if straight > 0.94:
                    cands.append((-straight, ia, ea, ib, eb))
        if not cands:
            return pieces
        cands.sort()  # straightest first; ties by position in the list, so the result is deterministic
        used: set[int] = set()
        joined: dict[int, list[Pt]] = {}
        for _, ia, ea, ib, eb in cands:
            if ia in used or ib in used:
                continue
            used |= {ia, ib}
            pa = pieces[ia] if ea == 1 else pieces[ia][::-1]
            pb = pieces[ib] if eb == 0 else pieces[ib][::-1]
            joined[ia] = pa + pb
        pieces = [joined.get(i, p) for i, p in enumerate(pieces) if i not in used or i in joined]


def dash_pattern(chain: list[list[Pt]], lw: float) -> bool:
    """Whether a chain of pieces is a dash pattern, not a solid line cut by what lies on it.

    A solid line under an edge label's plate comes back as its two long ends with the
    faint scraps between the glyphs chained in: the ends of a dashed line are at most a
    dash long (they may be cut short), so ends much longer than every inner dash mean a
    solid line.
    """
    inner = max(path_length(pc) for pc in chain[1:-1])
    ends = max(path_length(chain[0]), path_length(chain[-1]))
    return ends <= 1.6 * inner + lw


def chain_dashes(pieces: list[list[Pt]], lw: float) -> list[list[list[Pt]]]:
    """Chain dash pieces (and dots) into lines: short gaps, continuing direction.

    Every piece has two ends; candidate links between ends of different pieces are taken
    shortest first, each end at most once, never closing a cycle.
    """
    gap_max = 4.0 * lw + 5.0
    n = len(pieces)
    if n == 0:
        return []
    ends = np.array([[pc[0], pc[-1]] for pc in pieces], dtype=np.float64)  # n×2×2
    short = [path_length(pc) < 12 * lw + 12 for pc in pieces]
    dirs = [(direction_out(pc, True), direction_out(pc, False)) for pc in pieces]
    flat = ends.reshape(-1, 2)
    pts = flat.tolist()  # the same doubles as Python floats: numpy's rows cost ~5x a float pair in the loops below
    cands = []
    cell = gap_max
    grid: dict[tuple[int, int], list[int]] = {}
    for k, (x, y) in enumerate(pts):
        grid.setdefault((int(x // cell), int(y // cell)), []).append(k)
    for k, (x, y) in enumerate(pts):
        gx, gy = int(x // cell), int(y // cell)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((gx + dx, gy + dy), ()):
                    if j <= k or j // 2 == k // 2:
                        continue
                    d = math.dist(pts[k], pts[j])
                    if 0.9 <= d <= gap_max and (short[k // 2] or short[j // 2]):
                        cost = _alignment_cost(k, j, flat, dirs, d, lw)
                        if cost is not None:
                            cands.append((cost, k, j))
    cands.sort()
    link = [-1] * (2 * n)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for d, k, j in cands:
        if link[k] >= 0 or link[j] >= 0:
            continue
        a, b = find(k // 2), find(j // 2)
        if a == b:
            continue
        link[k], link[j] = j, k
        parent[a] = b
    chains: list[list[list[Pt]]] = []
    done = [False] * n
    for i in range(n):
        if done[i]:
            continue
        # walk back to a free end of this chain, then forward
        cur, entry = i, 0
        seen = {i}
        while link[2 * cur + entry] >= 0:
            other = link[2 * cur + entry]
            nxt = other // 2
            if nxt in seen:
                break
            seen.add(nxt)
            cur, entry = nxt, 1 - (other % 2)
        # now cur's end `entry` is free: traverse leaving through the other end
        chain = []
        while True:
            done[cur] = True
            pc = pieces[cur] if entry == 0 else pieces[cur][::-1]
            chain.append(pc)
            out = link[2 * cur + (1 - entry)]
            if out < 0 or done[out // 2]:
                break
            cur, entry = out // 2, out % 2
        chains.append(chain)
    return chains


def _alignment_cost(k: int, j: int, flat: np.ndarray, dirs, d: float, lw: float) -> float | None:
    """Cost of linking end k to end j: the gap, weighted by how much the direction turns.

    Straight continuations are cheapest; a right-angle turn (a dashed orthogonal route's bend)
    is allowed across a short gap; anything pointing backwards is refused.
    """
    gap = flat[j] - flat[k]
    dk = dirs[k // 2][k % 2]
    dj = dirs[j // 2][j % 2]
    if dk is None and dj is None:
        return d if d <= 3.0 * lw + 4 else None  # two dots: only very close ones
    cosines = []
    if dk is not None:
        cosines.append((gap[0] * dk[0] + gap[1] * dk[1]) / d)
    if dj is not None:
        cosines.append((-gap[0] * dj[0] - gap[1] * dj[1]) / d)
    worst = min(cosines)
    if worst > 0.6:
        return d * (2.0 - worst)
    if worst > -0.2 and d <= 2.5 * lw + 5:
        return d * 4.0
    if dk is not None and dj is not None and abs(dk[0] * dj[0] + dk[1] * dj[1]) < 0.5:
        # a bend that fell in a gap: both ends point at one corner, and the route's gap is the
        # two legs to it (a q75 JPEG's dashes, shortened by ringing, left a 9 + 1 px bend gap)
        legs = _corner_legs(flat[k], dk, flat[j], dj)
        if legs is not None and min(legs) >= -1.0 and sum(legs) <= 4.0 * lw + 5.0:
            return sum(legs) * 4.0
    return None


def _corner_legs(p: np.ndarray, dp: tuple[float, float], q: np.ndarray,
                 dq: tuple[float, float]) -> tuple[float, float] | None:
    """How far p must go along dp and q along dq to meet (None for parallel directions)."""
    det = dp[0] * (-dq[1]) - dp[1] * (-dq[0])
    if abs(det) < 1e-6:
        return None
    rx, ry = q[0] - p[0], q[1] - p[1]
    a = (rx * (-dq[1]) - ry * (-dq[0])) / det
    b = (dp[0] * ry - dp[1] * rx) / det
    return float(a), float(b)
