"""The excalidraw-real maker: real Excalidraw scenes from mirrored repositories (files, and scenes embedded in
PNG exports), licences recorded, real-set sources left out; truth read off the scene's elements."""

from __future__ import annotations

import json
import struct
import zlib

from mirror_helpers import bare_mirror

from craftbench.makers.excalidraw_real import embedded_images, harvest, licence_of, png_scene, truth, well_formed
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
    scenes, unlicensed, malformed = harvest(tmp_path / "mirror", real)
    assert [(s["repo"], s["path"], s["licence"]) for s in scenes] == [("o/r", "docs/copy.excalidraw", "MIT"),
                                                                     ("o/r", "docs/states.excalidraw.png", "MIT")]
    assert scenes[1]["truth"]["edges"] == [["Idle!", "Running job!"]]
    assert real.left_out == 1 and unlicensed == 1 and malformed == 0


def test_an_arrow_end_deep_inside_a_container_does_not_reach_it():
    # an unbound arrow from Done to empty paper inside the container Workers (30 px from its outline) reaches
    # nothing; one starting just above Workers' outline reaches it
    inner = {"elements": SCENE["elements"] + [_arrow("cx", 425, 260, [[0, 0], [45, 30]]),
                                              _arrow("wb", 350, 175, [[0, 0], [0, -120]])]}
    t = truth(inner)
    assert ["Done", "Workers"] not in t["edges"] and ["Workers", "Running job"] in t["edges"]


def _repo_with(tmp_path, name: str, files: dict, licence: str | None = "MIT License\n"):
    work = tmp_path / name
    work.mkdir()
    if licence:
        (work / "LICENSE").write_text(licence)
    for path, data in files.items():
        (work / path).write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    bare_mirror(work, tmp_path / "mirror", name.replace("_", "+"))


SMALL = {"elements": [e for e in SCENE["elements"] if e["id"] in ("a", "ta", "b", "tb", "ab")]}


def test_a_forks_copy_of_a_real_set_figures_scene_is_left_out_wherever_it_lies(tmp_path):
    # the real-set figure is of o/r; the fork a/fork holds the same scene under another name and directory
    _repo_with(tmp_path, "a_fork", {"copy.excalidraw": SMALL})
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"figures": [{"repo": "o/r", "path": "x/y.png", "nodes": ["Idle", "Running job"]}]}))
    scenes, _, _ = harvest(tmp_path / "mirror", RealSet(manifest))
    assert scenes == []


def test_an_unlicensed_copy_hides_no_licensed_one(tmp_path):
    _repo_with(tmp_path, "a_copy", {"s.excalidraw": SMALL}, licence=None)  # sorts first, no licence
    _repo_with(tmp_path, "b_orig", {"s.excalidraw": SMALL})
    scenes, unlicensed, _ = harvest(tmp_path / "mirror", RealSet(tmp_path / "none.json"))
    assert [s["repo"] for s in scenes] == ["b/orig"] and unlicensed == 0


def test_malformed_scenes_are_skipped_and_counted(tmp_path):
    els = SMALL["elements"]
    bad = [
        {"elements": [dict(e, points=[[0, 0, 1], [190, 0, 1]]) if e["id"] == "ab" else e for e in els]},
        {"elements": [{k: v for k, v in e.items() if k != "id"} if e["id"] == "a" else e for e in els]},
        {"elements": [dict(e, x=None) if e["id"] == "b" else e for e in els]},
    ]
    assert all(not well_formed(b) for b in bad) and well_formed(SMALL)
    chunk = _png_with_scene(SMALL).replace(b'{"version"', b'["version"', 1)  # a list, not the wrapper
    assert png_scene(chunk) is None
    files = {f"bad{i}.excalidraw": b for i, b in enumerate(bad)}
    _repo_with(tmp_path, "o_r", {**files, "bad3.excalidraw.png": _png_with_scene([1, 2]), "good.excalidraw": SMALL})
    scenes, _, malformed = harvest(tmp_path / "mirror", RealSet(tmp_path / "none.json"))
    assert [s["path"] for s in scenes] == ["good.excalidraw"] and malformed == 3


def test_images_counted_only_where_the_scene_holds_their_data():
    scene = {"elements": [_el("image", "i1", 0, 0, 10, 10, fileId="f1"), _el("image", "i2", 0, 0, 10, 10, fileId="f2"),
                          _el("image", "i3", 0, 0, 10, 10, fileId="f3")],
             "files": {"f1": {"dataURL": "data:image/png;base64,AAAA"}, "f2": {"dataURL": "https://example.org/a.png"}}}
    assert embedded_images(scene) == 1
