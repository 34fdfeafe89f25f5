"""The excalidraw-real maker: real Excalidraw scenes from mirrored repositories (files, and scenes embedded in
PNG exports), licences recorded, real-set sources left out; truth read off the scene's elements."""

from __future__ import annotations

import json
import struct
import zlib

from mirror_helpers import bare_mirror

from craftbench.makers.excalidraw_real import harvest, licence_of, png_scene, truth
from craftbench.makers.mermaid_versions import RealSet


def _el(kind: str, id_: str, x: float, y: float, w: float, h: float, **kw) -> dict:
    return {"type": kind, "id": id_, "x": x, "y": y, "width": w, "height": h, "isDeleted": False, **kw}


def _text(id_: str, x: float, y: float, s: str, container: str | None = None) -> dict:
    return _el("text", id_, x, y, 8 * len(s), 20, text=s, originalText=s, containerId=container)


def _arrow(id_: str, x: float, y: float, pts: list, start: str | None = None, end: str | None = None, **kw) -> dict:
    bind = lambda k: {"elementId": k, "focus": 0, "gap": 5} if k else None  # noqa: E731
    return _el("arrow", id_, x, y, 0, 0, points=pts, startBinding=bind(start), endBinding=bind(end),
               endArrowhead=kw.pop("head", "arrow"), startArrowhead=kw.pop("tail", None), **kw)


# Two bound-text boxes, an ellipse labelled by free text inside it, a container around the ellipse and a box no
# arrow reaches, a diamond whose label is bound; arrows bound, unbound near a shape, pointing backwards, labelled.
SCENE = {"type": "excalidraw", "elements": [
    _el("rectangle", "a", 0, 0, 100, 50), _text("ta", 20, 15, "Idle", "a"),
    _el("rectangle", "b", 300, 0, 100, 50), _text("tb", 310, 15, "Running job", "b"),
    _el("rectangle", "box", 280, 180, 260, 140), _text("tbox", 290, 185, "Workers"),
    _el("ellipse", "c", 300, 220, 120, 80), _text("tc", 330, 250, "Done"),
    _el("rectangle", "e", 450, 220, 60, 40),
    _el("diamond", "d", 0, 200, 100, 80), _text("td", 20, 230, "ok?", "d"),
    _arrow("ab", 105, 25, [[0, 0], [190, 0]], "a", "b"),  # bound at both ends
    _text("lab", 150, 5, "start", "ab"),  # its label: text, not a node
    _arrow("bc", 350, 60, [[0, 0], [5, 150]]),  # unbound: starts 10 px under b, ends 10 px over c
    _arrow("dc", 105, 240, [[0, 0], [185, 0]], "d", None, head=None, tail="arrow"),  # head at the start only
    _arrow("far", 600, 600, [[0, 0], [50, 0]], None, "b"),  # its start reaches nothing: no edge
    _el("rectangle", "gone", 0, 400, 50, 50, isDeleted=True), dict(_text("tg", 5, 410, "Gone", "gone"), isDeleted=True),
]}


def test_truth_reads_labels_bindings_and_touching_ends():
    t = truth(SCENE)
    assert sorted(t["nodes"]) == ["Done", "Idle", "Running job", "ok?"]  # the container no arrow reaches is none
    assert t["edges"] == [["Idle", "Running job"], ["Running job", "Done"], ["Done", "ok?"]]
    assert "start" in t["text"] and "Workers" in t["text"] and "Gone" not in t["text"]


def test_an_arrow_reaching_a_container_makes_it_a_node():
    scene = {"elements": SCENE["elements"] + [_arrow("ax", 50, 55, [[0, 0], [235, 200]], "a", "box")]}
    t = truth(scene)
    assert "Workers" in t["nodes"] and ["Idle", "Workers"] in t["edges"]


def _png_with_scene(scene: dict) -> bytes:
    payload = json.dumps({"version": "1", "encoding": "bstring", "compressed": True,
                          "encoded": zlib.compress(json.dumps(scene).encode()).decode("latin-1")})
    data = b"application/vnd.excalidraw+json\0" + payload.encode("latin-1")
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data + struct.pack(">I", zlib.crc32(b"tEXt" + data))
    end = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return b"\x89PNG\r\n\x1a\n" + chunk + end


def test_reads_the_scene_a_png_export_embeds():
    assert png_scene(_png_with_scene(SCENE))["elements"][1]["text"] == "Idle"
    assert png_scene(b"\x89PNG\r\n\x1a\n") is None


def test_licences_named():
    assert licence_of("MIT License\n\nCopyright (c) 2024 x") == "MIT"
    assert licence_of("                Apache License\n  Version 2.0, January 2004") == "Apache-2.0"
    assert licence_of("All rights reserved.") is None


def test_harvest_keeps_licensed_scenes_once_and_leaves_out_real_set_sources(tmp_path):
    small = {"elements": [e for e in SCENE["elements"] if e["id"] in ("a", "ta", "b", "tb", "ab")]}  # two boxes, an arrow
    other = {"elements": [dict(e, text=e["text"] + "!", originalText=e["text"] + "!") if e["type"] == "text" else e
                          for e in small["elements"]]}
    work = tmp_path / "w1"
    (work / "docs").mkdir(parents=True)
    (work / "LICENSE").write_text("MIT License\n")
    (work / "docs/flow.excalidraw").write_text(json.dumps(small))
    (work / "docs/copy.excalidraw").write_text(json.dumps(small))  # the same scene again: drawn once
    (work / "docs/states.excalidraw.png").write_bytes(_png_with_scene(other))
    (work / "img").mkdir()
    (work / "img/arch.excalidraw").write_text(json.dumps(other))  # named as a real-set figure: left out
    bare_mirror(work, tmp_path / "mirror", "o+r")
    work2 = tmp_path / "w2"
    work2.mkdir()
    third = {"elements": [dict(e, text="x" + e["text"], originalText="x" + e["text"]) if e["type"] == "text" else e
                          for e in small["elements"]]}
    (work2 / "s.excalidraw").write_text(json.dumps(third))  # no licence file: counted, not drawn
    bare_mirror(work2, tmp_path / "mirror", "p+q")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"figures": [{"repo": "o/r", "path": "pics/arch.excalidraw.png", "nodes": []}]}))
    real = RealSet(manifest)
    scenes, unlicensed = harvest(tmp_path / "mirror", real)
    assert [(s["repo"], s["path"], s["licence"]) for s in scenes] == [("o/r", "docs/copy.excalidraw", "MIT"),
                                                                     ("o/r", "docs/states.excalidraw.png", "MIT")]
    assert scenes[1]["truth"]["edges"] == [["Idle!", "Running job!"]]
    assert real.left_out == 1 and unlicensed == 1
