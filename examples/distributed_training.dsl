# Data- and pipeline-parallel training topology
figure "Distributed training topology" direction=TB
ps    node "Parameter server /\nall-reduce ring" shape=hexagon fill=#FBEBCB
g0 node "GPU 0\nstages 1–2" shape=box fill=#D6E6F4
g1 node "GPU 1\nstages 3–4" shape=box fill=#D6E6F4
g2 node "GPU 2\nstages 1–2" shape=box fill=#CDEBE1
g3 node "GPU 3\nstages 3–4" shape=box fill=#CDEBE1
d0 node "Data shard 0" shape=cylinder
d1 node "Data shard 1" shape=cylinder
a1 edge d0 -> g0
a2 edge d1 -> g2
p0 edge g0 -> g1 "activations"
p1 edge g2 -> g3 "activations"
r0 edge g1 <-> ps "gradients" style=dashed
r1 edge g3 <-> ps "gradients" style=dashed
node0 group "Node 0 (NVLink)" [g0, g1]
node1 group "Node 1 (NVLink)" [g2, g3]
cluster group "Data-parallel replicas" [node0, node1] style=dotted
