# A multi-agent system with a shared memory
figure "Multi-agent research assistant" direction=LR
user    node "Researcher" shape=ellipse
planner node "Planner agent" shape=round fill=#D6E6F4
search  node "Search agent" shape=round fill=#CDEBE1
coder   node "Coding agent" shape=round fill=#CDEBE1
critic  node "Critic agent" shape=round fill=#F3E0EC
memory  node "Shared memory" shape=cylinder fill=#FBEBCB
tools   node "Tools: web, Python,\nPDF reader" shape=stack
report  node "Report" shape=document
e1 edge user -> planner "task"
e2 edge planner -> search "sub-goal"
e3 edge planner -> coder "sub-goal"
e4 edge search -> tools
e5 edge coder -> tools
e6 edge search -> memory style=dotted
e7 edge coder -> memory style=dotted
e8 edge memory -> critic style=dotted
e9 edge critic -> planner "feedback" style=dashed
e10 edge critic -> report "approve"
workers group "Worker agents" [search, coder]
