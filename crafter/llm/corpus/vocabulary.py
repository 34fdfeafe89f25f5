"""The corpus's label vocabulary and its held-out split.

Labels are built from heads and modifiers of ML, biology, physics, systems and chemistry
(and, in training, invented words). Words are split by a hash: 1 in 5 is held out, and the
held-out split uses only held-out words, so it measures vocabulary never seen in training.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

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

SYLLABLES = ("ka lo mi ne ra su te vo zi pa qu bri cor dex fal gor hen jix lum mor nix orb pel quo rin sil tor ulm vex "
             "wyn xer yor zul").split()


def _held_out_word(word: str) -> bool:
    return zlib.crc32(word.lower().encode()) % 5 == 0


def pseudo_word(rng: random.Random) -> str:
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

    def pick(ws: list[str]) -> list[str]:
        return sorted({w for w in ws if _held_out_word(w) == held})

    return Vocab(pick(HEADS), pick(MODIFIERS), pick(ACRONYMS), pseudo=not held)


def shape_for(label: str) -> str:
    if label.endswith("?"):
        return "diamond"
    last = label.split()[-1].lower()
    return "cylinder" if last in STORAGE_HEADS else "box"


# words on edges ("gradients", "tokens"): shared by both splits
EDGE_WORDS = """gradients tokens features logits queries scores samples batches events requests
photons ions electrons reads spectra frames embeddings weights labels alerts metrics
counts peaks fragments images masks packets messages rewards actions states""".split()
