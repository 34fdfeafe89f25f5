# Dataset-construction flowchart with decisions
figure "Dataset construction" direction=TB
crawl  node "Crawl 2.1 M papers" shape=parallelogram
extract node "Extract figures\nand captions" shape=box
dedup  node "Near-duplicate removal\n(perceptual hash)" shape=box
isdiag node "Is it a diagram?" shape=diamond fill=#FBEBCB
qual   node "Caption ≥ 10 words?" shape=diamond fill=#FBEBCB
annot  node "Human annotation\n(3 raters)" shape=round
agree  node "Agreement κ ≥ 0.7?" shape=diamond fill=#FBEBCB
final  node "Final set: 48 k figures" shape=cylinder fill=#CDEBE1
drop   node "Discard" shape=circle fill=#F7DCCB
e1 edge crawl -> extract
e2 edge extract -> dedup
e3 edge dedup -> isdiag
e4 edge isdiag -> qual "yes"
e5 edge isdiag -> drop "no"
e6 edge qual -> annot "yes"
e7 edge qual -> drop "no"
e8 edge annot -> agree
e9 edge agree -> final "yes"
e10 edge agree -> annot "no: re-annotate" style=dashed
