# SPDX-License-Identifier: MIT
# style.gp - what every plot of the decks shares; each plot loads it
# after gnuplot was given out="build/fig/NAME.pdf". A deck shows a plot
# at this size, unscaled, under a one-line caption: its text is in the
# decks' footnote size, 9 pt: pdfcairo sets a font at 4/3 of its
# size times its fontscale.
set terminal pdfcairo size 5.75in,2.45in font "Helvetica,9" fontscale 0.75
set output out
set border 3
set xtics nomirror
set ytics nomirror
set grid ytics lc rgb "#dddddd"
set key top left
set linetype 1 lc rgb "#c0504d" lw 2 pt 7
set linetype 2 lc rgb "#4f81bd" lw 2 pt 5
set linetype 3 lc rgb "#9bbb59" lw 2 pt 9
