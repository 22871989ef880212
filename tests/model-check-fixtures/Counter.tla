---- MODULE Counter ----
\* Fixture for model-check.sh's self-test: a counter that climbs to Max, so that each TLC verdict
\* (pass, invariant, property, deadlock, parse error) can be produced on purpose.
EXTENDS Naturals
CONSTANT Max
VARIABLE x
Init == x = 0
Inc == x < Max /\ x' = x + 1
Spec == Init /\ [][Inc]_x
FairSpec == Spec /\ WF_x(Inc)
TypeInv == x \in 0..Max
BelowTwoInv == x < 2
ReachesMaxProp == <>(x = Max)
NeverMaxProp == [](x # Max)
====
