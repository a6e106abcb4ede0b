# SPDX-License-Identifier: MIT
# style.gp - what every plot of the decks shares; each plot loads it
# after gnuplot was given out="build/fig/NAME.pdf".
set terminal pdfcairo size 5.6in,3.0in font "Helvetica,10"
set output out
set border 3
set xtics nomirror
set ytics nomirror
set grid ytics lc rgb "#dddddd"
set key top left
set linetype 1 lc rgb "#c0504d" lw 2 pt 7
set linetype 2 lc rgb "#4f81bd" lw 2 pt 5
set linetype 3 lc rgb "#9bbb59" lw 2 pt 9
