"""A list item that heads a list of names ("- inputs: the receptor PDB and a docked ligand SDF") draws the names
as boxes in a group the heading names; an item heading a step or its settings keeps its heading as its box."""

from __future__ import annotations

from figure_labels import edge_labels, member_labels, node_labels

from crafter.agents.extract import figure_from_brief
from crafter.agents.headed import headed_names

SETUP = ("Simulation set-up, step by step:\n"
         "- inputs: the receptor PDB and a docked ligand SDF\n"
         "- prep: PDBFixer rebuilds missing atoms\n"
         "- production: 500 ns unrestrained, 2 fs step, frames every 100 ps\n")
STUDY = ("Study instruments\n"
         "- qualitative: semi-structured interviews, observation notes\n"
         "- instruction media: paper manual / tablet / HoloLens 2 (one model each)\n")


def test_a_heading_over_names_gives_the_names_as_boxes_in_its_group_unless_it_names_their_role() -> None:
    fig = figure_from_brief(SETUP)
    labels = {n.label for n in fig.of_kind("node")}
    assert {"Receptor PDB", "Docked ligand SDF"} <= labels
    assert "Inputs" not in labels
    # a role the names play ("inputs", "analysis", "model"): no frame round them
    assert "inputs" not in member_labels(fig, lower=True)
    rig = figure_from_brief("Flow rig, as wired:\n- delivery: the substrate pump and the H2 generator\n"
                            "- reactor zone: packed bed and back-pressure regulator\n")
    assert member_labels(rig, lower=True).get("delivery") == {"Substrate pump", "H2 generator"}  # a part that holds them: a group
    edges = edge_labels(fig)
    assert ("Receptor PDB", "Docked ligand SDF") not in edges  # side by side, not in a row
    assert {("Receptor PDB", "Prep"), ("Docked ligand SDF", "Prep")} <= edges


def test_lists_of_names_split_on_commas_slashes_and_brackets_dropped() -> None:
    labels = {n.label for n in figure_from_brief(STUDY).of_kind("node")}
    assert {"Semi-structured interviews", "Observation notes", "Paper manual", "Tablet", "HoloLens 2"} <= labels
    assert not labels & {"Qualitative", "Instruction media"}


def test_a_heading_over_a_step_settings_or_a_sentence_is_no_list() -> None:
    assert headed_names("production: 500 ns unrestrained, 2 fs step") is None
    assert headed_names("generators: G maps horse to zebra, F maps zebra to horse") is None
    assert headed_names("delivery: the pump and the H2 generator, joined at a mixer") is None
    assert headed_names("equilibration: 1 ns NVT, then 1 ns NPT, heavy atoms restrained") is None
    assert headed_names("system build: solvate and neutralise") is None
    assert headed_names("inputs: main.o, util.o and libm.a") == ("inputs", ["main.o", "util.o", "libm.a"])


def test_a_heading_said_as_an_order_is_a_step_not_a_group() -> None:
    assert headed_names("Filter: low-quality reads and adapters") is None
    fig = figure_from_brief("Steps:\n1. Trim: adapters and primers\n2. Filter: low-quality reads and adapters\n"
                            "3) Map: reads to the reference\n")
    assert "Filter" in {n.label for n in fig.of_kind("node")}
    assert not {g.label for g in fig.of_kind("group")} & {"1", "2", "3", "Filter"}
    assert headed_names("Output: a VCF and a report") == ("Output", ["VCF", "Report"])  # a noun, not an order


def test_a_noun_ending_like_a_verb_is_a_name() -> None:
    assert headed_names("Inputs: PDB file, template") == ("Inputs", ["PDB file", "Template"])


def test_names_between_bars_after_a_long_heading_are_boxes_side_by_side() -> None:
    brief = ("Coating comparison\n"
             "- slurry → doctor blade → wet film\n"
             "- three dryers run side by side: infrared dryer | convection oven | vacuum chamber\n"
             "- every dryer → adhesion test\n")
    fig = figure_from_brief(brief)
    labels = node_labels(fig)
    assert {"Infrared dryer", "Convection oven", "Vacuum chamber"} <= labels
    assert not any("side" in x.lower() for x in labels)
    edges = edge_labels(fig)
    assert ("Infrared dryer", "Convection oven") not in edges  # side by side, not in a row


def test_names_written_as_code_or_a_brand_keep_their_case_in_every_list_reader() -> None:
    from crafter.agents.headed import as_said, piped_names
    assert headed_names("libraries: libm.a, libfoo.so and tRNAscan") == ("libraries", ["libm.a", "libfoo.so",
                                                                                      "tRNAscan"])
    assert piped_names("n-BuLi | mzIdentML | bt_runner | raman") == ["n-BuLi", "mzIdentML", "bt_runner", "Raman"]
    assert as_said("deduplicator") == "Deduplicator"
    brief = "Robot stack\n- sensors side by side: lidar_driver | camera_node | imu_filter\n- every sensor -> the fusion node\n"
    labels = {n.label for n in figure_from_brief(brief).of_kind("node")}
    assert {"lidar_driver", "camera_node", "imu_filter", "Fusion node"} <= labels


def test_an_order_is_one_rule_for_the_item_and_the_heading() -> None:
    from crafter.agents.phrases import is_order, item_label
    assert is_order("Filter") and is_order("embed") and is_order("minimise") and is_order("accept")
    assert not is_order("output") and not is_order("model output")
    assert item_label("embed: 3D embedding followed by GFN2-xTB") == "Embedding"
    assert item_label("accept: the packet is forwarded") == "Accept"  # a verdict keeps its word
    assert headed_names("accept: the packet, the LAN port") is None  # an order's heading names no group


def test_a_panel_that_sets_names_between_bars_draws_them() -> None:
    brief = ("Fig. 2 layout\n"
             "(a) film growth: substrate cleaning → ZnO seed layer → hydrothermal nanorods\n"
             "(b) characterisation of the grown film: SEM | XRD θ–2θ | UV-vis absorption\n"
             "(c) devices: electrode evaporation → encapsulation\n")
    panels = member_labels(figure_from_brief(brief), "panel")
    assert panels.get("(b)") == {"SEM", "XRD θ–2θ", "UV-vis absorption"}
    assert {"(a)", "(c)"} <= set(panels)


def test_a_long_heading_that_sets_names_side_by_side_names_their_group() -> None:
    brief = ("Image conditioning for the decoder\n"
             "- two image encoders run side by side on the frame: DINOv2 and SigLIP\n"
             "- DINOv2 and SigLIP each give patch tokens\n"
             "- patch tokens → cross-attention adapter\n")
    fig = figure_from_brief(brief)
    labels = node_labels(fig)
    assert {"DINOv2", "SigLIP"} <= labels
    assert not any("side" in x.lower() for x in labels)
    assert member_labels(fig).get("Image encoders") == {"DINOv2", "SigLIP"}
    edges = edge_labels(fig)
    assert ("SigLIP", "DINOv2") not in edges and ("DINOv2", "SigLIP") not in edges  # the next line names them again
