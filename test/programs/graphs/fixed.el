# 14 vertices in three weak components ({0..8}, {9, 10, 11}, {12, 13}), every
# edge in both directions, for the fixed-path programs fixed_*.gt
0 1
1 0
0 2
2 0
1 3
3 1
2 4
4 2
3 5
5 3
4 5
5 4
5 6
6 5
6 7
7 6
7 8
8 7
2 8
8 2
9 10
10 9
10 11
11 10
12 13
13 12
