# SPDX-License-Identifier: MIT
# size.gp - median round trip against message size, one line for each
# way of waiting (data/size.dat).
load "plots/style.gp"
set logscale xy
set xlabel "bytes per message"
set ylabel "median round trip (us)"
set key bottom right
set xtics ("64" 64, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536)
plot "data/size.dat" using 1:2 with linespoints title "busy-poll (ping-sr-2)", \
     "" using 1:3 with linespoints title "channel (ping-sr-3)", \
     "" using 1:4 with linespoints title "poll-both (ping-sr-4)"
