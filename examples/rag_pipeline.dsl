# Retrieval-augmented generation
figure "Retrieval-augmented generation" direction=LR
q      node "User query" shape=parallelogram
emb    node "Query encoder" shape=round
index  node "Vector index\n(FAISS)" shape=cylinder fill=#FBEBCB
docs   node "Document corpus" shape=stack
chunk  node "Chunker + embedder" shape=round
rerank node "Cross-encoder\nre-ranker" shape=round
llm    node "LLM generator" shape=round fill=#D6E6F4 bold=true
ans    node "Grounded answer" shape=document fill=#CDEBE1
e1 edge q -> emb
e2 edge emb -> index "k-NN search"
e3 edge docs -> chunk
e4 edge chunk -> index "embeddings"
e5 edge index -> rerank "top-k passages"
e6 edge rerank -> llm "context"
e7 edge q -> llm "prompt" style=dashed
e8 edge llm -> ans
offline group "Offline indexing" [docs, chunk] style=dotted
online  group "Online retrieval" [emb, index, rerank]
