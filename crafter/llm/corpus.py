"""The synthetic corpus CraftLM is trained on: (task, prompt, target DSL) triples.

Three tasks (prompt formats in :mod:`crafter.llm.prompts`):

* **plan** — a researcher's brief (prose, bullets, numbered steps, arrows, passive
  voice, captions) -> the whole figure's DSL;
* **chart** — a table schema plus a one-line brief -> one chart statement;
* **repair** — a figure's DSL plus one instruction or critic issue -> the
  replacement lines of the named components.

Targets are built as :class:`crafter.spec.Figure` objects and printed with
``print_dsl`` (never hand-formatted), so they always parse.

Conventions the model learns (and the held-out split checks):

* node ids ``n1, n2…`` in order of first mention in the brief; edges ``e1…`` in
  the order they are stated; groups ``g1…`` last;
* labels are spans copied verbatim from the brief (case kept);
* storage nouns (database, store, buffer…) give ``shape=cylinder``, a label ending
  in ``?`` gives ``shape=diamond``; "dashed"/"optional" links give ``style=dashed``.

**Held-out split.** Words of the label vocabulary are split by a hash (1 in 5 is
held out), and every phrasing family (connective verbs, sentence frames, bullet and
step styles, group and caption wordings) has a training and a held-out half. The
held-out split uses only held-out words and held-out phrasings, so it measures
phrasing and vocabulary never seen in training.
"""

from __future__ import annotations

import functools
import json
import random
import zlib
from dataclasses import dataclass, field

from crafter.llm.encoder import EncoderError, model_path
from crafter.llm.prompts import chart_prompt, plan_prompt, repair_prompt
from crafter.spec import Chart, Edge, Figure, Group, Node, print_component, print_dsl

# ---------------------------------------------------------------------------------
# Vocabulary: heads and modifiers from ML, biology, physics, systems, chemistry
# ---------------------------------------------------------------------------------

HEADS = """encoder decoder tokenizer embedding transformer attention projector classifier
regressor discriminator generator critic policy optimizer scheduler sampler retriever
reranker index cache buffer router gateway loader parser validator aggregator pooler
normalizer detector segmenter tracker planner controller actuator sensor estimator filter
amplifier oscillator laser detector spectrometer interferometer resonator magnet cryostat
ribosome nucleus mitochondrion chloroplast membrane receptor kinase enzyme promoter
transcript protein antibody neuron synapse cortex hippocampus organoid culture
sequencer aligner assembler annotator caller reactor catalyst solvent precipitate
electrode electrolyte anode cathode membrane column chromatograph titrator distiller
compiler linker kernel scheduler allocator server client broker queue shard replica
database store warehouse lake bucket registry ledger archive repository bank
dataset benchmark corpus checkpoint model head backbone adapter module block layer
stage phase pipeline workflow loop monitor dashboard report summary visualizer
simulator solver integrator emulator surrogate interpolator mesh grid lattice
spectrum signal waveform photon beam target chamber trigger digitizer readout
microscope camera scanner centrifuge incubator pipette plate assay probe primer
ligand substrate product intermediate reagent monomer polymer crystal film wafer""".split()

MODIFIERS = """neural graph convolutional recurrent sparse dense latent visual textual
acoustic multimodal contrastive variational adversarial causal masked frozen shared
local global temporal spatial spectral optical thermal quantum classical magnetic
cellular genomic proteomic metabolic synaptic cortical viral bacterial fungal
chemical catalytic organic ionic polymeric crystalline aqueous gaseous
distributed parallel streaming batch online offline remote edge cloud secure
primary secondary auxiliary final initial raw clean noisy filtered calibrated
reference baseline target source query key value feature token patch pixel
image audio video text code protein gene cell tissue sample signal event
fast slow coarse fine hierarchical residual gated recursive iterative adaptive""".split()

STORAGE_HEADS = {"database", "store", "warehouse", "lake", "bucket", "registry", "ledger",
                 "archive", "repository", "bank", "cache", "buffer", "dataset", "corpus"}

ACRONYMS = """CNN RNN GNN MLP VAE GAN LSTM GRU BERT ViT CLIP PCR NMR MRI EEG FPGA GPU TPU
CPU DRAM SSD API RPC DNA RNA ATP LHC CMOS HPLC FRET qPCR scRNA ELISA SQL KV LoRA
MoE RAG OCR ASR TTS DFT MCMC PDE ODE FFT PID""".split()

SYLLABLES = "ka lo mi ne ra su te vo zi pa qu bri cor dex fal gor hen jix lum mor nix orb pel quo rin sil tor ulm vex wyn xer yor zul".split()


def _held_out_word(word: str) -> bool:
    return zlib.crc32(word.lower().encode()) % 5 == 0


def _pseudo_word(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
    # letter soup: unseen words split into pieces no training word shares, so only copying works
    vowels, consonants = "aeiouy", "bcdfghjklmnpqrstvwxz"
    return "".join(rng.choice(consonants) + rng.choice(vowels) + ("" if rng.random() < 0.6 else rng.choice(consonants))
                   for _ in range(rng.randint(2, 4)))


@dataclass
class Vocab:
    heads: list[str]
    modifiers: list[str]
    acronyms: list[str]
    pseudo: bool  # invent words too (training only: teaches copying of anything)


def vocab_for(split: str) -> Vocab:
    held = split != "train"
    pick = (lambda ws: sorted({w for w in ws if _held_out_word(w) == held}))
    return Vocab(pick(HEADS), pick(MODIFIERS), pick(ACRONYMS), pseudo=not held)


def make_label(rng: random.Random, vocab: Vocab, used: set[str]) -> str:
    english = english_name_words() if vocab.pseudo else ()

    def modifier() -> str:
        return rng.choice(english) if english and rng.random() < 0.25 else rng.choice(vocab.modifiers)

    for _ in range(50):
        r = rng.random() if vocab.pseudo else 1.0  # (the held-out split draws as it always did)
        if vocab.pseudo and r < 0.3:
            head = _pseudo_word(rng)
        elif english and r < 0.5:
            head = rng.choice(english)
        else:
            head = rng.choice(vocab.heads)
        words = [head]
        r = rng.random()
        if r < 0.45:
            words.insert(0, modifier())
        elif r < 0.6:
            words.insert(0, rng.choice(vocab.acronyms))
        elif r < 0.7:
            words = [modifier(), modifier(), head]
        elif r < 0.75:
            words.append(str(rng.randint(1, 12)))
        case = rng.random()
        if case < 0.55:
            words = [w if w.isupper() or w[0].isupper() else w.capitalize() for w in words]
        elif case < 0.65:
            words[0] = words[0] if words[0].isupper() else words[0].capitalize()
        label = " ".join(words)
        if rng.random() < 0.05:
            label += "?"
        if label.lower() not in used:
            used.add(label.lower())
            return label
    raise RuntimeError("vocabulary too small for a figure this size")


def shape_for(label: str) -> str:
    if label.endswith("?"):
        return "diamond"
    last = label.split()[-1].lower()
    return "cylinder" if last in STORAGE_HEADS else "box"


# ---------------------------------------------------------------------------------
# Figure structures
# ---------------------------------------------------------------------------------


@dataclass
class Link:
    src: int
    dst: int
    label: str | None = None
    dashed: bool = False


@dataclass
class Plan:
    labels: list[str]  # in order of first mention (= node ids n1, n2…)
    links: list[Link]  # in stated order
    groups: list[tuple[str, list[int]]] = field(default_factory=list)
    title: str | None = None

    def figure(self) -> Figure:
        comps: list = []
        for i, lab in enumerate(self.labels):
            comps.append(Node(kind="node", id=f"n{i + 1}", label=lab, shape=shape_for(lab)))
        for j, l in enumerate(self.links):
            comps.append(Edge(kind="edge", id=f"e{j + 1}", source=f"n{l.src + 1}", target=f"n{l.dst + 1}",
                              label=l.label, style="dashed" if l.dashed else "solid"))
        for k, (glabel, members) in enumerate(self.groups):
            comps.append(Group(kind="group", id=f"g{k + 1}", label=glabel, members=[f"n{m + 1}" for m in members]))
        return Figure(title=self.title, components=comps)


EDGE_WORDS = """gradients tokens features logits queries scores samples batches events requests
photons ions electrons reads spectra frames embeddings weights labels alerts metrics
counts peaks fragments images masks packets messages rewards actions states""".split()

TITLE_FRAMES = ["Overview of the {x} pipeline", "The {x} architecture", "{x} workflow", "How {x} works",
                "Schematic of the {x} setup", "{x} system design", "Data flow in {x}"]


# ---------------------------------------------------------------------------------
# Phrasing families: each is (train variants, held-out variants)
# ---------------------------------------------------------------------------------

def _split(train: list[str], held: list[str]) -> dict[str, list[str]]:
    return {"train": train, "heldout": held}


# active "A <verb> B"
ACTIVE = _split(
    ["{a} feeds {b}", "{a} feeds into {b}", "{a} passes its output to {b}", "{a} sends its results to {b}",
     "{a} is followed by {b}", "{a} flows into {b}", "{a} provides input to {b}", "{a} connects to {b}",
     "{a} writes to {b}", "{a} forwards everything to {b}", "{a} outputs to {b}", "{a} triggers {b}",
     "{a} is piped into {b}", "{a} produces the input of {b}", "{a} updates {b}", "{a} calls {b}",
     "{a} leads to {b}", "{a} goes to {b}", "{a} is connected to {b}", "{a} hands its output over to {b}"],
    ["{a} streams into {b}", "{a} drives {b}", "{a} supplies {b}", "{a} hands off to {b}",
     "{a} relays its output to {b}", "{a} then reaches {b}", "{a} pushes data to {b}", "{a} activates {b}",
     "{a} is wired to {b}", "{a} delivers to {b}"])
# passive "B <verb> A" (mentions B first)
PASSIVE = _split(
    ["{b} is fed by {a}", "{b} receives the output of {a}", "{b} is driven by {a}", "{b} takes input from {a}",
     "{b} reads from {a}", "{b} is populated by {a}", "{b} gets its input from {a}"],
    ["{b} is consumed from {a}", "{b} is supplied by {a}", "{b} draws on {a}", "{b} is triggered by {a}"])
WHICH = _split([", which feeds {b}", ", which in turn passes it to {b}", ", whose output goes to {b}",
                ", which then sends it to {b}"],
               [", which hands off to {b}", ", and from there to {b}"])
LABELLED = _split(
    ["{a} sends {l} to {b}", "{a} passes {l} to {b}", "{a} -> {b} ({l})", "an arrow labelled \"{l}\" goes from {a} to {b}"],
    ["{a} ships {l} over to {b}", "{a} transmits {l} to {b}"])
DASHED = _split(["{a} optionally feeds {b} (dashed)", "a dashed arrow goes from {a} to {b}"],
                ["{a} may also reach {b} (draw it dashed)"])
GROUPS = _split(
    ["{m} are grouped as {g}", "{m} sit inside a box labelled {g}", "{g} contains {m}", "put {m} in a group called {g}",
     "{m} form the {g}"],
    ["{m} belong together under {g}", "frame {m} and title the frame {g}"])
CAPTIONS = _split(["Figure 1: {t}.", "Title: {t}", "Caption: {t}."], ["Fig. 3 — {t}.", "Figure title: {t}"])
OPENERS = _split(
    ["Please draw a diagram of our system.", "We want a figure for the methods section.",
     "Here is the pipeline we use.", "Draw the following architecture.", "", "", ""],
    ["Could you sketch this for the paper?", "The setup is as follows.", ""])
FILLERS = _split(
    ["This design keeps latency low.", "Everything runs on a single machine.", "We tuned this carefully.",
     "This is standard practice in the field.", "The whole thing runs nightly."],
    ["It was validated on three cohorts.", "This saves a lot of compute."])
STEP_STYLES = _split(["{i}. {x}", "Step {i}: {x}", "({i}) {x}"], ["{i}) {x}", "Stage {i} - {x}"])
BULLETS = _split(["- ", "* "], ["• "])
ARROWS = _split([" -> ", " → "], [" => ", " ⟶ "])
THE = ["the ", "", "", "our ", "a "]

# ---------------------------------------------------------------------------------
# Invented phrasing (training only): frames built from a broad verb list and from
# made-up verbs, so the model learns the *shape* of a link sentence ("A <verb
# phrase> B.", "B is <participle> by A.", ", which <verb phrase> B") rather than a
# list of verbs. No word that only the held-out phrasings use is ever generated
# (checked by a test), so the held-out split stays unseen.
# ---------------------------------------------------------------------------------

# regular verbs: 3rd person = +s/+es, participle = +ed (spelling handled below)
VERBS = """pass route pipe channel forward transfer load signal notify inform call invoke query
request answer return report connect link attach couple bind map point direct steer guide
hand send emit export import post publish broadcast queue stage cache store save record log
convert transform filter refine process compute encode decode compress expand feed prime seed
inject insert attach append prepend propagate spread migrate shift move carry lift convey
dispatch submit commit deploy launch start spawn fork branch merge join sync mirror replicate
copy clone poll fetch pull collect gather harvest sample measure probe scan check verify test
validate score rank sort order schedule plan assign allocate budget power fuel charge heat cool
excite pump illuminate irradiate expose label tag mark stain wash rinse elute extract purify
crystallise precipitate titrate mix stir dilute concentrate separate sequence align assemble
annotate count tally summarise summarize visualise display show render plot inform educate
nourish sustain support enable boost prompt seed warm inspect monitor audit track follow trail""".split()
PARTICLES = ["to", "into", "onto", "toward", "towards", "through to", "along to", "on to", "across to",
             "", "", "", ""]
OBJECTS = ["", "", "", "its output ", "its results ", "results ", "everything ", "the output ",
           "its data ", "what it makes ", "a stream ", "each result ", "the result "]
ADVERBS = ["", "", "", "", "then ", "directly ", "also ", "in turn ", "always ", "usually ", "finally ",
           "next ", "later "]
GENERIC_NOUNS = """approach method system design work project idea plan study figure diagram sketch
picture layout structure model schema draft version paper section chapter appendix experiment
setup""".split()
GENERIC_SENTENCES = ["We describe the {n} below.", "Our {n} is shown here.", "This {n} was easy to build.",
                     "The {n} took a week.", "Below is the {n}.", "Here is the {n} in brief.",
                     "Please make a clean {n}.", "The {n} needs to fit one column.", "Keep the {n} simple.",
                     "This {n} is new.", "Our team drew the {n} by hand first.", "Make it look tidy.",
                     "Nothing else matters here.", "It runs every hour.", "All parts are open source."]
FILLER_NOUNS = """approach method system design work project idea plan study figure diagram sketch
picture layout draft version report poster talk slide thesis chapter appendix experiment trial run
batch dataset benchmark budget week month year hour minute team lab group reviewer student cost
memory speed accuracy quality hardware server cluster laptop code script notebook result number
time effort detail part piece page column space money power energy""".split()
FILLER_SUBJECTS = ["It", "This", "That", "Everything", "The whole thing", "Each part", "All of it", "Nothing",
                   "We", "Our team", "They", "Most of it"]
FILLER_COUNTS = ["two", "three", "four", "five", "six", "several", "many", "a few", "12", "40", "100"]
FILLER_FRAMES = ["{S} got {Ved} on {k} {ns}.", "{S} {Vs} plenty of {n}.", "{S} {Vs} the {n}.", "{S} {Vs} {k} {ns}.",
                 "{S} {Vs} our {n} each {m}.", "Can we {V} this for the {n}?", "Shall we {V} it for our {n}?",
                 "Might we {V} the {n} for the {m}?", "Please {V} this for a {n}.", "{S} took {k} {ns}.",
                 "{S} {Vs} well on the {n}.", "{S} got {Ved} by the {n}.", "{S} is {Ved} for the {m}.",
                 "We {V} it each {n}.", "{S} {Vs} less {n} than before.", "Is it possible to {V} the {n}?",
                 "Will it {V} the {m}?", "{S} were {Ved} with {k} {ns}."]
STEP_WORDS = ["Step", "Phase", "Part", "Level", "Item", "Task", "Move"]
STEP_SEPS = [": ", " - ", " – ", ". ", ") ", "] ", " = ", " | "]
BULLET_GLYPHS = ["- ", "* ", "+ ", "o ", "> ", "· ", "▪ ", "– ", "‣ ", "◦ ", "> ", "-- ", "# "]
CAPTION_WORDS = ["Figure", "Caption", "Title", "Diagram", "Panel", "Chart", "Plate", "Scheme", "Heading"]
CAPTION_SEPS = [": ", ". ", " - ", " – ", " | ", " = "]
GROUP_PREPS = ["in", "inside", "within", "as part of", "into", "as", "together as", "together in",
               "as a unit called", "in a box named", "in the frame"]
MODALS = ["may ", "can ", "might ", "could "]
OPTIONAL_ADVERBS = ["sometimes ", "optionally ", "occasionally ", "also "]
DASHED_NOTES = ["(dashed)", "(draw it dashed)", "(dashed line)", "(use a dashed arrow)", "(dashed arrow)"]
GROUP_IMPERATIVES = ["box", "frame", "wrap", "enclose", "gather", "cluster"]
GROUP_NAMINGS = ["as", "under the name", "and call it", "and label it", "in", "named"]
GROUP_VERBS = ["are", "sit", "live", "go", "stay", "reside", "are boxed", "are framed", "are placed",
               "are drawn", "are kept", "are put", "are clustered", "are bundled", "are packed"]


def _third(v: str) -> str:
    if v.endswith(("s", "sh", "ch", "x", "z")):
        return v + "es"
    if v.endswith("y") and v[-2:-1] not in "aeiou":
        return v[:-1] + "ies"
    return v + "s"


def _participle(v: str) -> str:
    if v.endswith("e"):
        return v + "d"
    if v.endswith("y") and v[-2:-1] not in "aeiou":
        return v[:-1] + "ied"
    return v + "ed"


def _invented_verb(rng: random.Random) -> str:
    """A verb stem: one of the list above, one of English's (mostly) or a made-up one ("zorb")."""
    r = rng.random()
    if r < 0.4:
        return rng.choice(_VERB_STEMS)
    if r < 0.75 and english_verbs():
        return rng.choice(english_verbs())
    while True:
        v = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 2))) + rng.choice(["", "t", "n", "k"])
        if not {v, _third(v), _participle(v)} & _FORBIDDEN:
            return v


def invented_link(rng: random.Random, kind: str) -> str:
    """A link frame with ``{a}``/``{b}`` (and ``{l}`` for labelled links) in a phrasing never listed."""
    v = _invented_verb(rng)
    part = rng.choice(PARTICLES)
    adv = rng.choice(ADVERBS)
    if kind == "passive":
        return "{b} is " + adv + _participle(v) + " " + rng.choice(["by", "by", "from", "through", "via"]) + " {a}"
    if kind == "which":
        return ", which " + adv + _third(v) + " " + (part + " " if part else "") + "{b}"
    if kind == "labelled":
        return "{a} " + adv + _third(v) + " {l} " + (part or "to") + " {b}"
    if kind == "dashed":
        verb = rng.choice(_MODALS) + v if rng.random() < 0.5 else rng.choice(_OPTIONAL_ADVERBS) + _third(v)
        return "{a} " + verb + " " + (part + " " if part else "") + "{b} " + rng.choice(_DASHED_NOTES)
    return "{a} " + adv + _third(v) + " " + rng.choice(OBJECTS) + (part + " " if part else "") + "{b}"


def invented_sentence(rng: random.Random) -> str:
    """An opener or filler sentence that names no component: a listed one, or one built from a
    pronoun subject, an English verb and generic nouns ("It was rated on four batches.", "Could you
    draft this for the report?"), so that a sentence about the figure rather than in it reads as
    such whatever its words."""
    if rng.random() < 0.5:
        return rng.choice(GENERIC_SENTENCES).format(n=rng.choice(_GENERIC_NOUNS))
    v = _invented_verb(rng)
    n, m = rng.choice(_FILLER_NOUNS), rng.choice(_FILLER_NOUNS)
    plural = n + ("es" if n.endswith(("s", "sh", "ch", "x")) else "s")
    frame = rng.choice(FILLER_FRAMES)
    return frame.format(S=rng.choice(FILLER_SUBJECTS), V=v, Vs=_third(v), Ved=_participle(v), n=n, ns=plural, m=m,
                        k=rng.choice(FILLER_COUNTS))


def invented_step(rng: random.Random) -> str:
    r = rng.random()
    sep = rng.choice(STEP_SEPS)
    if r < 0.5:
        return rng.choice(STEP_WORDS) + " {i}" + sep + "{x}"
    return "{i}" + sep + "{x}"


def invented_caption(rng: random.Random) -> str:
    word = rng.choice(CAPTION_WORDS)
    if rng.random() < 0.4:
        word += f" {rng.randint(1, 9)}"
    return word + rng.choice(CAPTION_SEPS) + "{t}" + rng.choice(["", ".", ""])


def invented_group(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.3:
        return rng.choice(_GROUP_IMPERATIVES) + " {m} " + rng.choice(_GROUP_NAMINGS) + " {g}"
    if r < 0.5:  # any English verb as the imperative ("Ring A, B and C and label it G")
        return _invented_verb(rng) + " {m} " + rng.choice(_GROUP_NAMINGS + _VERB_GROUP_NAMINGS) + " {g}"
    return "{m} " + rng.choice(GROUP_VERBS) + " " + rng.choice(GROUP_PREPS) + " {g}"


P_INVENTED = 0.35  # share of training sentences/frames written in invented phrasing


def _np(rng: random.Random, label: str) -> str:
    """A noun phrase for a label: an optional determiner plus the label verbatim."""
    return rng.choice(THE) + label


# ---------------------------------------------------------------------------------
# Plan briefs
# ---------------------------------------------------------------------------------


def _random_plan(rng: random.Random, vocab: Vocab) -> Plan:
    n = rng.choice([2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8])
    used: set[str] = set()
    labels = [make_label(rng, vocab, used) for _ in range(n)]
    links = [Link(i, i + 1) for i in range(n - 1)]
    if n >= 4 and rng.random() < 0.4:  # a skip or feedback link
        a, b = sorted(rng.sample(range(n), 2))
        if b - a > 1:
            links.append(Link(b, a) if rng.random() < 0.5 else Link(a, b))
    for l in links:
        r = rng.random()
        if r < 0.2:
            l.label = rng.choice(EDGE_WORDS) if not vocab.pseudo or rng.random() < 0.7 else _pseudo_word(rng)
        elif r < 0.27:
            l.dashed = True
    plan = Plan(labels, links)
    if n >= 3 and rng.random() < 0.35:
        s = rng.randrange(0, n - 1)
        e = rng.randrange(s + 2, n + 1)
        plan.groups.append((make_label(rng, vocab, used), list(range(s, e))))
    if rng.random() < 0.3:
        plan.title = rng.choice(TITLE_FRAMES).format(x=labels[0])
    return plan


def _link_sentence(rng: random.Random, split: str, l: Link, names: list[str]) -> tuple[str, tuple[int, int]]:
    """A clause stating a link; returns it with the order the two nodes are mentioned in."""
    a, b = names[l.src], names[l.dst]
    inv = _invent(rng, split)
    if l.label is not None:
        frame = invented_link(rng, "labelled") if inv else rng.choice(LABELLED[split])
        return frame.format(a=a, b=b, l=l.label), (l.src, l.dst)
    if l.dashed:
        frame = invented_link(rng, "dashed") if inv else rng.choice(DASHED[split])
        return frame.format(a=a, b=b), (l.src, l.dst)
    if rng.random() < 0.25:
        frame = invented_link(rng, "passive") if inv else rng.choice(PASSIVE[split])
        return frame.format(a=a, b=b), (l.dst, l.src)
    frame = invented_link(rng, "active") if inv else rng.choice(ACTIVE[split])
    return frame.format(a=a, b=b), (l.src, l.dst)


def _invent(rng: random.Random, split: str) -> bool:
    """Use an invented phrasing here? (training split only; the held-out draws are untouched)"""
    return split == "train" and rng.random() < P_INVENTED


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def render_brief(rng: random.Random, plan: Plan, split: str) -> Plan:
    """Write a brief for ``plan``; returns (brief, plan renumbered in order of first mention)."""
    style = rng.choice(["prose", "prose", "bullets", "steps", "arrows"])
    names = [_np(rng, lab) for lab in plan.labels]
    bare = list(plan.labels)
    mentioned: list[int] = []

    def mention(*idx: int) -> None:
        for i in idx:
            if i not in mentioned:
                mentioned.append(i)

    parts: list[str] = []
    opener = invented_sentence(rng) if _invent(rng, split) else rng.choice(OPENERS[split])
    if opener:
        parts.append(opener)
    body: list[str] = []
    links = list(plan.links)
    chain = [l for l in links if l.label is None and not l.dashed and l.dst == l.src + 1]
    extra = [l for l in links if l not in chain]
    if style == "arrows" and chain:
        path = [chain[0].src] + [l.dst for l in chain]
        contiguous = all(chain[k].dst == chain[k + 1].src for k in range(len(chain) - 1))
        if contiguous:
            arrow = rng.choice(ARROWS[split])
            body.append(arrow.join(bare[i] for i in path))
            mention(*path)
            chain = []
    if style == "steps" and chain:
        path = [chain[0].src] + [l.dst for l in chain]
        if all(chain[k].dst == chain[k + 1].src for k in range(len(chain) - 1)):
            fmt = invented_step(rng) if _invent(rng, split) else rng.choice(STEP_STYLES[split])
            body.append("The steps, in order:" if split == "train" else "In sequence:")
            for i, node in enumerate(path):
                body.append(fmt.format(i=i + 1, x=_cap(names[node])))
            mention(*path)
            chain = []
    sentences: list[str] = []
    k = 0
    while k < len(chain):  # prose: "A feeds B, which feeds C" runs
        l = chain[k]
        s, order = _link_sentence(rng, split, l, names)
        mention(*order)
        while k + 1 < len(chain) and chain[k + 1].src == l.dst and order == (l.src, l.dst) and rng.random() < 0.4:
            k += 1
            l = chain[k]
            s += (invented_link(rng, "which") if _invent(rng, split) else rng.choice(WHICH[split])).format(b=names[l.dst])
            mention(l.dst)
        sentences.append(_cap(s) + ".")
        k += 1
    for l in extra:
        s, order = _link_sentence(rng, split, l, names)
        mention(*order)
        sentences.append(_cap(s) + ".")
    if style == "bullets" and sentences:
        b = rng.choice(BULLET_GLYPHS) if _invent(rng, split) else rng.choice(BULLETS[split])
        body.extend(b + s for s in sentences)
    elif sentences:
        if rng.random() < 0.3:
            filler = invented_sentence(rng) if _invent(rng, split) else rng.choice(FILLERS[split])
            sentences.insert(rng.randrange(len(sentences) + 1), filler)
        body.append(" ".join(sentences))
    for i in range(len(plan.labels)):  # isolated nodes still need a mention
        if i not in mentioned:
            body.append(f"There is also {names[i]}." if split == "train" else f"Add {names[i]} on its own.")
            mention(i)
    groups_text = []
    for glabel, members in plan.groups:
        m = [names[i] for i in members]
        ms = ", ".join(m[:-1]) + " and " + m[-1] if len(m) > 1 else m[0]
        frame = invented_group(rng) if _invent(rng, split) else rng.choice(GROUPS[split])
        groups_text.append(_cap(frame.format(m=ms, g=glabel)) + ".")
    parts += body + groups_text
    if plan.title:
        cap = (invented_caption(rng) if _invent(rng, split) else rng.choice(CAPTIONS[split])).format(t=plan.title)
        if rng.random() < 0.5:
            parts.insert(0, cap)
        else:
            parts.append(cap)
    sep = "\n" if style in ("bullets", "steps") or rng.random() < 0.3 else " "
    brief = sep.join(p for p in parts if p)
    # renumber nodes in order of first mention
    order = {old: new for new, old in enumerate(mentioned)}
    renum = Plan([plan.labels[i] for i in mentioned],
                 [Link(order[l.src], order[l.dst], l.label, l.dashed) for l in plan.links],
                 [(g, [order[i] for i in ms]) for g, ms in plan.groups], plan.title)
    renum.brief = brief  # type: ignore[attr-defined]
    return renum


def plan_example(rng: random.Random, split: str) -> tuple[str, str]:
    """(brief, target DSL)."""
    plan = render_brief(rng, _random_plan(rng, vocab_for(split)), split)
    return plan.brief, print_dsl(plan.figure())  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------
# Chart: table schema + brief -> one chart statement
# ---------------------------------------------------------------------------------

MEASURES = """accuracy loss latency throughput f1 recall precision perplexity energy temperature
pressure yield concentration absorbance expression fluorescence voltage current frequency
wavelength intensity runtime memory cost error speedup reward count density viscosity""".split()
DIMENSIONS = """model method dataset epoch step batch_size layer species strain sample condition
treatment gene protein material solvent catalyst site device node region cohort day year
seed optimizer backbone task split""".split()
TEMPORAL = ["epoch", "step", "day", "year", "time", "iteration"]
MARKS = _split(
    {"bar": ["bar chart of {y} by {x}", "compare {y} across {x} with bars", "bar plot: {y} per {x}"],
     "line": ["line chart of {y} over {x}", "plot {y} against {x} as a line", "{y} vs {x}, lines"],
     "point": ["scatter plot of {y} against {x}", "scatter {y} vs {x}", "dots for {y} over {x}"],
     "area": ["area chart of {y} over {x}"],
     "boxplot": ["box plot of {y} for each {x}", "distribution of {y} per {x} as box plots"]},
    {"bar": ["show {y} for every {x} as bars", "a bar graph with {x} on the x axis and {y} on y"],
     "line": ["trend of {y} along {x}", "draw how {y} changes with {x}"],
     "point": ["{y} plotted as points against {x}"],
     "area": ["filled area of {y} across {x}"],
     "boxplot": ["spread of {y} in each {x} (box and whiskers)"]})
COLOR_BY = _split([", coloured by {c}", ", one colour per {c}", ", split by {c}"], [", hue = {c}", ", grouped by {c}"])
CHART_TITLES = _split([" titled \"{t}\"", ". Title: {t}"], [", caption \"{t}\""])


def _field_name(rng: random.Random, pool: list[str], split: str) -> str:
    name = rng.choice(pool)
    if rng.random() < 0.3:
        name = name + "_" + rng.choice(["mean", "avg", "score", "ms", "pct", "total"])
    if split == "train" and rng.random() < 0.3:
        name = _pseudo_word(random.Random(rng.random())) + ("_" + name if rng.random() < 0.5 else "")
    if split != "train":
        name = name + "_" + rng.choice(["val", "obs", "run"])
    return name


def chart_example(rng: random.Random, split: str) -> tuple[str, str, str]:
    """(schema text, brief, target DSL of one chart component)."""
    mark = rng.choice(list(MARKS[split]))
    y = _field_name(rng, MEASURES, split)
    x = rng.choice(TEMPORAL) if mark in ("line", "area") and rng.random() < 0.6 else _field_name(rng, DIMENSIONS, split)
    if mark == "point" and rng.random() < 0.5:
        x = _field_name(rng, MEASURES, split)
    xtype = "temporal" if x in TEMPORAL and rng.random() < 0.3 else (
        "quantitative" if mark in ("point", "line", "area") and (x in TEMPORAL or x.split("_")[0] in MEASURES) else "nominal")
    cols = {x: xtype, y: "quantitative"}
    color = None
    if rng.random() < 0.4:
        color = _field_name(rng, DIMENSIONS, split)
        if color in cols:
            color = None
        else:
            cols[color] = "nominal"
    for _ in range(rng.randint(0, 2)):  # distractor columns
        extra = _field_name(rng, rng.choice([MEASURES, DIMENSIONS]), split)
        cols.setdefault(extra, "quantitative" if extra.split("_")[0] in MEASURES else "nominal")
    items = list(cols.items())
    rng.shuffle(items)
    table = rng.choice(["results", "runs", "measurements", "data", "table"]) + rng.choice([".csv", ".xlsx", ""])
    schema = f"table {table}: " + ", ".join(f"{c} ({t})" for c, t in items)
    brief = rng.choice(MARKS[split][mark]).format(x=x, y=y)
    if color:
        brief += rng.choice(COLOR_BY[split]).format(c=color)
    title = None
    if rng.random() < 0.4:
        title = f"{_cap(y.replace('_', ' '))} by {x.replace('_', ' ')}"
        brief += rng.choice(CHART_TITLES[split]).format(t=title)
    brief = _cap(brief)
    enc = {"x": {"field": x, "type": xtype}, "y": {"field": y, "type": "quantitative"}}
    if mark == "bar" and rng.random() < 0.0:
        pass
    if color:
        enc["color"] = {"field": color, "type": "nominal"}
    chart = Chart(kind="chart", id="c1", title=title, spec={"mark": mark, "encoding": enc})
    return schema, brief, print_dsl(Figure(components=[chart]))


# ---------------------------------------------------------------------------------
# Repair: figure DSL + instruction -> replacement lines for the named components
# ---------------------------------------------------------------------------------

COLORS = ["#dbe9f6", "#fde0c5", "#e2f0d9", "#f4cccc", "#ead1dc", "#fff2cc", "#d9d2e9", "#cfe2f3",
          "lightblue", "lightgray", "orange", "gold", "salmon", "teal", "white"]
REPAIR_FRAMES = _split({
    "rename": ["Rename {id} to \"{v}\".", "Change the label of {id} to \"{v}\".", "{id} should read \"{v}\"."],
    "shape": ["Make {id} a {v}.", "Draw {id} as a {v}.", "Use shape {v} for {id}."],
    "dash": ["Make edge {id} dashed.", "Draw {id} with a dashed line.", "{id} is optional: dash it."],
    "fill": ["Fill {id} with {v}.", "Colour {id} {v}.", "Set the fill of {id} to {v}."],
    "elabel": ["Label edge {id} \"{v}\".", "Put the text \"{v}\" on edge {id}."],
    "reverse": ["Reverse the direction of {id}.", "Edge {id} points the wrong way; flip it."],
    "bold": ["Make the text of {id} bold.", "Emphasise {id} with bold text."],
    "overflow": ["[text-overflow] {id}: the label does not fit; shorten it to \"{v}\"."],
    "contrast": ["[low-contrast] {id}: text is hard to read on its fill; use fill {v}."],
}, {
    "rename": ["Call {id} \"{v}\" instead.", "Relabel {id} as \"{v}\"."],
    "shape": ["{id} ought to be a {v}.", "Switch {id} to the {v} shape."],
    "dash": ["Use a broken line for {id}.", "Render {id} dashed please."],
    "fill": ["Give {id} a {v} background.", "Paint {id} {v}."],
    "elabel": ["Annotate {id} with \"{v}\".", "Edge {id} needs the caption \"{v}\"."],
    "reverse": ["Turn {id} around.", "{id} should go the other way."],
    "bold": ["Put {id} in bold.", "{id} needs heavier type."],
    "overflow": ["[label-too-long] {id} overflows its box; use \"{v}\"."],
    "contrast": ["[contrast] {id} is unreadable; change its fill to {v}."],
})
SHAPE_WORDS = ["round", "ellipse", "circle", "diamond", "cylinder", "hexagon", "document", "stack", "parallelogram"]


# More ways to ask for each edit, for the edit head only (crafter.llm.edits): the decoder's corpus
# keeps REPAIR_FRAMES, so the shipped decoder's recipe is unchanged. None of these is a held-out
# phrasing (tests/llm/test_edits.py checks), and none reuses a held-out frame's wording.
EDIT_PARAPHRASES = {
    "rename": ["Replace the label of {id} with \"{v}\".", "Name {id} \"{v}\".", "The text in {id} must be \"{v}\".",
               "{id}: write \"{v}\" instead.", "Retitle box {id} \"{v}\".", "Swap the text of {id} for \"{v}\"."],
    "shape": ["{id} should be drawn as a {v}.", "Change {id} into a {v}.", "Reshape {id} as a {v}.",
              "{id} needs to be a {v}.", "I want {id} drawn as a {v}.", "Can {id} be a {v}?", "Give {id} the {v} outline."],
    "dash": ["Dash the line of {id}.", "{id} should be a dashed arrow.", "Show {id} as a dashed connection.",
             "Draw edge {id} in dashes.", "Mark {id} as optional with a dashed stroke.", "Edge {id}: dashes, not a solid line."],
    "fill": ["Shade {id} {v}.", "Use {v} as the fill colour of {id}.", "Fill colour for {id}: {v}.",
             "{id} should have a {v} fill.", "Recolour {id} to {v}.", "Set the colour of {id} to {v}.",
             "Make the box {id} {v}."],
    "elabel": ["Write \"{v}\" on {id}.", "Add the label \"{v}\" to edge {id}.", "Edge {id} should say \"{v}\".",
               "Tag the arrow {id} with \"{v}\".", "Mark {id} \"{v}\"."],
    "reverse": ["Swap the ends of {id}.", "{id} runs backwards; invert it.", "Flip edge {id}.",
                "The arrow {id} points the wrong direction.", "Invert the direction of {id}.",
                "Make {id} point back to where it starts.", "{id} is drawn from the wrong end."],
    "bold": ["Use a bold font for {id}.", "The label of {id} should be bold.", "Bolden {id}.",
             "Set {id} in boldface.", "Make {id} stand out in a bold weight."],
    "overflow": ["[text-overflow] {id}: label too wide; use \"{v}\".",
                 "The label of {id} is too long for its box; shorten it to \"{v}\"."],
    "contrast": ["[low-contrast] {id}: pick a lighter fill such as {v}.",
                 "Text on {id} is hard to read; make the fill {v}."],
}


# Requests outside the six edits the edit head knows (move, delete, reroute, resize, other
# attributes…), for its "other" class: on them it must say nothing and leave the decoder to answer.
# Training only; tests/llm/test_edits.py holds unseen ones.
EDIT_OTHER = {
    "any": ["Shift {id} down a bit.", "Take {id} out of the figure.", "Drop {id}.", "Align {id} with its neighbours.",
            "{id} is too close to the title.", "Put {id} next to the legend.", "Duplicate {id}.", "Hide {id}.",
            "Add a new step after {id}.", "Connect {id} to the output as well.", "Place {id} in the top row.",
            "{id} sits on top of another component.", "Keep {id} but raise it.", "Give {id} more room.",
            "Nudge {id} to the left.", "Swap the positions of {id} and its neighbour."],
    "node": ["Make {id} wider.", "Shrink {id}.", "Enlarge the box {id}.", "Increase the font size of {id}.",
             "Give {id} a thicker outline.", "Round the corners of {id} less.", "Put {id} into the group.",
             "{id} overlaps its neighbour; move it.", "Add an icon to {id}.", "Split {id} into two boxes."],
    "edge": ["Widen the line of {id}.", "Send {id} along another path.", "Colour the line of {id} grey.",
             "{id} cuts through a box; route it elsewhere.", "Remove the text from {id}.",
             "Make the arrowhead of {id} open.", "Use a solid stroke for {id}.", "Attach {id} to the top side.",
             "{id} should leave from the right side.", "Curve {id} a little.", "Move the label of {id} up."],
}


def repair_example(rng: random.Random, split: str) -> tuple[str, str, list[str], str]:
    """(figure DSL, instruction, component ids, replacement DSL lines)."""
    return repair_case(rng, split)[:4]


def repair_case(rng: random.Random, split: str, frames: dict[str, list[str]] | None = None
                ) -> tuple[str, str, list[str], str, str]:
    """:func:`repair_example` and the kind of edit it asks for; ``frames`` (kind -> phrasings)
    replaces the split's phrasings (the same draws otherwise)."""
    vocab = vocab_for(split)
    plan = _random_plan(rng, vocab)
    plan.title = None
    fig = plan.figure()
    if rng.random() < 0.5:  # some figures already carry styling
        comps = []
        for c in fig.components:
            if c.kind == "node" and rng.random() < 0.3:
                c = c.model_copy(update={"fill": rng.choice(COLORS)})
            comps.append(c)
        fig = Figure(title=fig.title, components=comps)
    nodes = fig.of_kind("node")
    edges = fig.of_kind("edge")
    kinds = ["rename", "shape", "fill", "bold", "overflow", "contrast"] + (["dash", "elabel", "reverse"] * 2 if edges else [])
    kind = rng.choice(kinds)
    frames = (frames or REPAIR_FRAMES[split])[kind]
    if kind in ("dash", "elabel", "reverse"):
        target = rng.choice(edges)
    else:
        target = rng.choice(nodes)
    v = ""
    if kind == "rename":
        v = make_label(rng, vocab, {c.label.lower() for c in nodes})
        new = target.model_copy(update={"label": v})
    elif kind == "overflow":
        v = target.label.split()[-1] if len(target.label.split()) > 1 else target.label[:4]
        new = target.model_copy(update={"label": v})
    elif kind == "shape":
        v = rng.choice([s for s in SHAPE_WORDS if s != target.shape])
        new = target.model_copy(update={"shape": v})
    elif kind in ("fill", "contrast"):
        v = rng.choice([c for c in COLORS if c != target.fill])
        new = target.model_copy(update={"fill": v})
    elif kind == "bold":
        new = target.model_copy(update={"bold": True})
    elif kind == "dash":
        new = target.model_copy(update={"style": "dashed"})
    elif kind == "elabel":
        v = rng.choice(EDGE_WORDS) if rng.random() < 0.7 or not vocab.pseudo else _pseudo_word(rng)
        new = target.model_copy(update={"label": v})
    else:  # reverse
        new = target.model_copy(update={"source": target.target, "target": target.source})
    instruction = rng.choice(frames).format(id=target.id, v=v)
    return print_dsl(fig), instruction, [target.id], print_component(new) + "\n", kind


# ---------------------------------------------------------------------------------
# Examples as model prompts
# ---------------------------------------------------------------------------------

TASK_MIX = (("plan", 0.6), ("chart", 0.15), ("repair", 0.25))


@dataclass
class Example:
    task: str
    prompt: str  # the full model prompt (see crafter.llm.prompts)
    target: str  # DSL the model must write
    source: str  # the user-facing input (brief / instruction), for reports


def make_example(rng: random.Random, split: str, task: str | None = None) -> Example:
    if task is None:
        r, acc = rng.random(), 0.0
        for task, w in TASK_MIX:
            acc += w
            if r < acc:
                break
    if task == "plan":
        brief, target = plan_example(rng, split)
        return Example("plan", plan_prompt(brief), target, brief)
    if task == "chart":
        schema, brief, target = chart_example(rng, split)
        return Example("chart", chart_prompt(schema, brief), target, brief)
    dsl, instruction, ids, target = repair_example(rng, split)
    return Example("repair", repair_prompt(dsl, instruction, ids), target, instruction)


def make_corpus(n: int, split: str, seed: int, task: str | None = None) -> list[Example]:
    rng = random.Random(f"{split}:{seed}")
    return [make_example(rng, split, task) for _ in range(n)]


def held_out_set(per_task: int = 40, seed: int = 0) -> list[Example]:
    """The fixed held-out prompts the benchmark and the identity tests use."""
    out: list[Example] = []
    for task in ("plan", "chart", "repair"):
        out += make_corpus(per_task, "heldout", seed, task)
    return out


def dump_jsonl(examples: list[Example], path: str) -> None:
    with open(path, "w") as f:
        for e in examples:
            f.write(json.dumps(e.__dict__) + "\n")


# ---------------------------------------------------------------------------------
# Words the invented phrasings may use: none that only held-out phrasings or the
# held-out label vocabulary contain
# ---------------------------------------------------------------------------------


def _words(x) -> set[str]:
    import re as _re

    if isinstance(x, dict):
        return set().union(*(_words(v) for v in x.values())) if x else set()
    if isinstance(x, (list, tuple)):
        return set().union(*(_words(v) for v in x)) if x else set()
    return set(_re.findall(r"[a-z]+", str(x).lower()))


_FAMILIES = (ACTIVE, PASSIVE, WHICH, LABELLED, DASHED, GROUPS, CAPTIONS, OPENERS, FILLERS, STEP_STYLES,
             BULLETS, ARROWS, MARKS, COLOR_BY, CHART_TITLES, REPAIR_FRAMES)
HELD_OUT_ONLY_WORDS = (set().union(*(_words(f["heldout"]) for f in _FAMILIES))
                       - set().union(*(_words(f["train"]) for f in _FAMILIES))
                       - {"model", "sample", "temporal"})
_FORBIDDEN = HELD_OUT_ONLY_WORDS | {w.lower() for w in vocab_for("heldout").heads + vocab_for("heldout").modifiers}
_FORBIDDEN.discard("and")  # every brief lists members as "A, B and C"; not a phrasing of its own


def _allowed(options: list[str]) -> list[str]:
    return [o for o in options if not _words(o) & _FORBIDDEN]


_VERB_STEMS = [v for v in VERBS if not {v, _third(v), _participle(v)} & _FORBIDDEN]


@functools.lru_cache(maxsize=1)
def _encoder_words() -> frozenset[str]:
    """The lower-case ASCII whole words of the brief encoder's WordPiece vocabulary (empty without it)."""
    try:
        return frozenset(w for w in (model_path() / "vocab.txt").read_text(encoding="utf-8").split()
                         if w.isascii() and w.isalpha() and w.islower())
    except (EncoderError, OSError):
        return frozenset()


@functools.lru_cache(maxsize=1)
def english_verbs() -> tuple[str, ...]:
    """Verb stems of English at large: whole words of the brief encoder's WordPiece vocabulary whose
    "-ing" or "-ed" form is a word there too ("ship": "shipping"), minus every word of the held-out
    phrasings and labels (in all the forms the corpus writes). A small list of verbs lets the model
    learn them by heart, and then a verb it never saw reads as part of a name ("Compiler ships");
    thousands of them teach it to find the verb from the sentence, which the encoder can read."""
    words = _encoder_words()
    if not words:  # the encoder package is a dependency; without it, the corpus's own verbs
        return ()
    names = {w.lower() for w in HEADS + MODIFIERS} | _FORBIDDEN
    out = []
    for w in sorted(words):
        if not 4 <= len(w) <= 10 or w in names:
            continue
        forms = {w + "ing", w + "ed"} | ({w[:-1] + "ing", w + "d"} if w.endswith("e") else set())
        if not forms & words or w.endswith("s") or {w, _third(w), _participle(w)} & names:
            continue
        out.append(w)
    return tuple(out)


_NAME_SUFFIXES = ("tion", "ment", "ity", "ness", "er", "or", "ist", "ism", "ure", "ance", "ence", "ogy", "graph",
                  "scope", "meter", "ase", "ide", "ine", "ium", "al", "ic", "ous", "ive", "ary", "ar", "on", "um", "us")
_NOT_NAME_WORDS = set("""hence outside inside various whether together never other either neither rather however
after over under ever upon within whose another further later earlier sooner whatever wherever moreover
thereafter therefore nevertheless otherwise anymore thus unless once""".split())


@functools.lru_cache(maxsize=1)
def english_name_words() -> tuple[str, ...]:
    """Nouns and adjectives of English at large for training names ("kinetic", "turbulence", "abolition"):
    whole words of the brief encoder's vocabulary with a noun or adjective ending, minus verbs, the
    corpus's own phrasing words and every held-out word. Names built only from a fixed vocabulary
    (and letter soup) taught the name head that an unseen real word ends a name ("Ionic" /
    "Resonator")."""
    words = {w for w in _encoder_words() if 4 <= len(w) <= 12}
    if not words:
        return ()
    verbs = set(english_verbs()) | set(VERBS)
    verb_forms = verbs | {_third(v) for v in verbs} | {_participle(v) for v in verbs}
    phrasing = set().union(*(_words(f["train"]) | _words(f["heldout"]) for f in _FAMILIES))
    bad = _FORBIDDEN | verb_forms | phrasing | _NOT_NAME_WORDS | {w.lower() for w in HEADS + MODIFIERS}
    return tuple(sorted(w for w in words if w.endswith(_NAME_SUFFIXES) and w not in bad))


_GENERIC_NOUNS = _allowed(GENERIC_NOUNS)
_FILLER_NOUNS = [n for n in FILLER_NOUNS if not {n, n + "s", n + "es"} & _FORBIDDEN]
FILLER_SUBJECTS, FILLER_COUNTS, FILLER_FRAMES = (_allowed(FILLER_SUBJECTS), _allowed(FILLER_COUNTS),
                                                 _allowed(FILLER_FRAMES))
PARTICLES, OBJECTS, ADVERBS = _allowed(PARTICLES), _allowed(OBJECTS), _allowed(ADVERBS)
GENERIC_SENTENCES, STEP_WORDS, CAPTION_WORDS = _allowed(GENERIC_SENTENCES), _allowed(STEP_WORDS), _allowed(CAPTION_WORDS)
GROUP_PREPS, GROUP_VERBS = _allowed(GROUP_PREPS), _allowed(GROUP_VERBS)
_MODALS, _OPTIONAL_ADVERBS, _DASHED_NOTES = _allowed(MODALS), _allowed(OPTIONAL_ADVERBS), _allowed(DASHED_NOTES)
_GROUP_IMPERATIVES, _GROUP_NAMINGS = _allowed(GROUP_IMPERATIVES), _allowed(GROUP_NAMINGS)
_VERB_GROUP_NAMINGS = _allowed(["and name it", "and title it", "and label the box", "with the heading", "and name the box"])
