# A two-panel overview: (a) pre-training, (b) fine-tuning
figure "Method overview"
corpus node "Unlabelled corpus" shape=cylinder
mask   node "Masked tokens" shape=box
encA   node "Encoder" shape=round fill=#D6E6F4
mlm    node "MLM head" shape=round
a1 edge corpus -> mask
a2 edge mask -> encA
a3 edge encA -> mlm "predict masked"
labels node "Labelled examples" shape=document
encB   node "Encoder (init. from a)" shape=round fill=#D6E6F4
cls    node "Classifier" shape=round fill=#CDEBE1
pred   node "Predictions" shape=ellipse
b1 edge labels -> encB
b2 edge encB -> cls
b3 edge cls -> pred
pa panel "(a)" [corpus, mask, encA, mlm] title="Pre-training" direction=TB
pb panel "(b)" [labels, encB, cls, pred] title="Fine-tuning" direction=TB
