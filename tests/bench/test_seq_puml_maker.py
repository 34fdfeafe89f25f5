"""The seq-puml maker (seq17): real PlantUML sequence sources, truth off the source as the real set lists a sequence
diagram's — participants once where ``hide footbox`` drops the foot row, twice otherwise; titled ``box`` groups and
notes as nodes; messages (sender, receiver) whichever way the arrow is written; names as drawn."""

from __future__ import annotations

from craftbench.makers import MAKERS
from craftbench.makers.seq_puml import _look, parse, truth

SRC = r"""@startuml
title Figure 9: User creates a cluster
actor User
box "Control plane" #lightgreen
participant "API Server"
participant "Cluster\nController" as core
end box
entity AWS

User->"API Server":kubectl apply -f cluster.yaml
"API Server"-->>core: New Cluster
activate core
note over core
    Reconcile until
    ready
end note
opt #FFFFFFCC Required only once
core -> core: Add watcher
core -> AWS: create VPC
core <<-- AWS: VPC id
end
== Done ==
deactivate core
hide footbox
@enduml
"""


def test_hidden_footbox_lists_each_participant_once_and_reverse_arrows_turn():
    seq = parse(SRC)
    assert seq is not None and not seq.footbox
    t = truth(seq)
    assert t["nodes"] == ["User", "API Server", "Cluster Controller", "AWS", "Control plane", "Reconcile until ready"]
    assert t["edges"] == [["User", "API Server"], ["API Server", "Cluster Controller"],
                          ["Cluster Controller", "Cluster Controller"], ["Cluster Controller", "AWS"],
                          ["AWS", "Cluster Controller"]]
    for words in ("Figure 9", "kubectl apply", "Required only once", "Done", "opt"):
        assert words in t["text"]


def test_foot_row_doubles_the_participants():
    seq = parse(SRC.replace("hide footbox\n", ""))
    assert seq is not None and seq.footbox
    assert truth(seq)["nodes"][-4:] == ["User", "API Server", "Cluster Controller", "AWS"]


def test_what_the_reader_cannot_follow_is_left_out():
    assert parse(SRC.replace("core -> core: Add watcher", "return done")) is None
    assert parse(SRC.replace("== Done ==", "!include common.puml")) is None
    assert parse("@startuml\nclass A {\n}\nA --> B\n@enduml\n") is None


def test_a_look_goes_in_after_startuml_and_the_maker_is_registered():
    src = _look(SRC, "strict", 120).splitlines()
    assert src[:3] == ["@startuml", "skinparam dpi 120", "skinparam style strictuml"]
    assert _look(SRC, "as-is", 96).splitlines()[1:3] == ["skinparam dpi 96", "title Figure 9: User creates a cluster"]
    assert MAKERS["seq-puml"] == "craftbench.makers.seq_puml"


def test_a_source_that_would_make_plantuml_load_something_is_left_out():
    """The maker draws repository sources untouched with PlantUML 1.2020 (no security profile): a label's image,
    a theme from a URL, a builtin function would fetch a URL or draw the machine's environment into the figure."""
    assert parse(SRC) is not None
    assert parse(SRC.replace("VPC id", "<img:https://example.com/logo.png>")) is None
    assert parse(SRC.replace("VPC id", '<img src="http://example.com/a.png">')) is None
    assert parse(SRC.replace("title Figure 9", '!theme cerulean from https://example.com/themes\ntitle Figure 9')) is None
    assert parse(SRC.replace("VPC id", '%getenv("HOME")')) is None
    assert parse(SRC.replace("title Figure 9", "!theme cerulean\ntitle Figure 9")) is not None  # a bundled theme
