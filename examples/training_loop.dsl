# Fine-tuning with a frozen backbone and trainable adapters
figure "Parameter-efficient fine-tuning" direction=TB
data   node "Training batch" shape=stack
tok    node "Tokenizer" shape=box
emb    node "Embedding layer" shape=box fill=#E6E6E6
blocks node "Transformer blocks ×24" shape=stack fill=#E6E6E6
lora   node "LoRA adapters\n(rank 8)" shape=round fill=#FBEBCB
head   node "Task head" shape=round fill=#FBEBCB
loss   node "Cross-entropy loss" shape=ellipse fill=#F7DCCB
opt    node "AdamW optimizer" shape=hexagon
e1 edge data -> tok
e2 edge tok -> emb
e3 edge emb -> blocks
e4 edge blocks -> head
e5 edge lora -> blocks "ΔW = BA" style=dashed
e6 edge head -> loss "logits"
e7 edge loss -> opt "∇ loss"
e8 edge opt -> lora "update" color=#D55E00
e9 edge opt -> head "update" color=#D55E00
frozen    group "Frozen (no gradients)" [emb, blocks] fill=#F7F7F7 style=dashed
trainable group "Trainable (1.2% of parameters)" [lora, head] stroke=#E69F00
note text "gradients flow only into the trainable group" near=opt side=below italic=true
