"""A scripted run shared by the graph and resume tests: a brief and what the scripted model answers."""

BRIEF = 'A "Tokenizer" feeds an "Encoder", which feeds a "Decoder"; the decoder output goes to a "Classifier".'
# the model forgets the classifier, pins two nodes on top of each other and writes unreadable text
PLAN = """figure "Text model"
tok node "Tokenizer"
enc node "Encoder" fill=#ffffff text_color=#eeeeee
dec node "Decoder"
note node "Notes" box=0,0,80,32 pinned=true
memo node "Memo" box=20,8,80,32 pinned=true
e1 edge tok -> enc
e2 edge enc -> dec
"""
ADD_CLASSIFIER = 'classifier node "Classifier"\ne3 edge dec -> classifier'
