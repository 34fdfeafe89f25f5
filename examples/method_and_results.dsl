# A two-panel figure: (a) the method as a diagram, (b) results as a chart from a CSV beside this file
figure "Method and results"
img   node "Image patches" shape=stack
vit   node "ViT encoder" shape=round fill=#D6E6F4
pool  node "[CLS] pooling" shape=box
head  node "Linear probe" shape=round fill=#CDEBE1
e1 edge img -> vit
e2 edge vit -> pool "tokens"
e3 edge pool -> head
acc chart "Top-1 accuracy by model" mark=bar x=model y=top1_accuracy color=dataset xOffset=dataset data=data/accuracy.csv
pa panel "(a)" [img, vit, pool, head] title="Linear probing" direction=TB
pb panel "(b)" [acc] title="Results"
