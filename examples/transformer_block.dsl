# A pre-norm transformer block
figure "Transformer block (pre-norm)" direction=BT
x     node "Input x" shape=ellipse
ln1   node "LayerNorm" shape=box fill=#FBF6CC
attn  node "Multi-head\nself-attention" shape=round fill=#D6E6F4
add1  node "+" shape=circle
ln2   node "LayerNorm" shape=box fill=#FBF6CC
ffn   node "Feed-forward\n(GELU, 4d)" shape=round fill=#DDF0FB
add2  node "+" shape=circle
y     node "Output" shape=ellipse
e1 edge x -> ln1
e2 edge ln1 -> attn
e3 edge attn -> add1
e4 edge add1 -> ln2
e5 edge ln2 -> ffn
e6 edge ffn -> add2
e7 edge add2 -> y
r1 edge x -> add1 "residual" style=dashed
r2 edge add1 -> add2 "residual" style=dashed
blk group "× N layers" [ln1, attn, add1, ln2, ffn, add2]
