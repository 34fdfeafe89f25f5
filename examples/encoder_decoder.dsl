# U-Net style encoder–decoder with skip connections
figure "Encoder–decoder with skip connections" direction=LR
img   node "Input image\n256×256×3" shape=document
enc1  node "Conv block 1\n64 ch" shape=round fill=#D6E6F4
enc2  node "Conv block 2\n128 ch" shape=round fill=#D6E6F4
enc3  node "Conv block 3\n256 ch" shape=round fill=#D6E6F4
neck  node "Bottleneck\n512 ch" shape=hexagon fill=#FBEBCB
dec3  node "Up block 3\n256 ch" shape=round fill=#CDEBE1
dec2  node "Up block 2\n128 ch" shape=round fill=#CDEBE1
dec1  node "Up block 1\n64 ch" shape=round fill=#CDEBE1
mask  node "Segmentation\nmask" shape=document
e1 edge img -> enc1
e2 edge enc1 -> enc2 "pool"
e3 edge enc2 -> enc3 "pool"
e4 edge enc3 -> neck
e5 edge neck -> dec3 "up"
e6 edge dec3 -> dec2 "up"
e7 edge dec2 -> dec1 "up"
e8 edge dec1 -> mask
s1 edge enc1 -> dec1 "skip" style=dashed
s2 edge enc2 -> dec2 "skip" style=dashed
s3 edge enc3 -> dec3 "skip" style=dashed
genc group "Encoder" [enc1, enc2, enc3] style=dashed
gdec group "Decoder" [dec3, dec2, dec1] style=dashed
