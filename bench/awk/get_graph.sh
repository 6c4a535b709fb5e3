#!/bin/sh
# The seed article's pipeline (get_graph.sh), re-typed: LOG.log -> LOG_rough.dot in three passes.
# Its `awk` is gawk: the three-argument match() is a gawk extension.
AWK=${AWK:-gawk}
HERE=$(dirname "$0")
LOGFILE=$1.log
ROUGH_LOGFILE=$1_rough.log
FILTERED_LOGFILE=$1_filterd.log
ROUGH_DOTFILE=$1_rough.dot

if [ -f $LOGFILE ]; then
$AWK 'match($0, /.*\|\|\s+(.*)/, out) {print out[1]}' $LOGFILE > $ROUGH_LOGFILE
$AWK -f "$HERE/get_graph_filter.awk" $ROUGH_LOGFILE > $FILTERED_LOGFILE
$AWK -f "$HERE/get_graph.awk" $FILTERED_LOGFILE > $ROUGH_DOTFILE
fi
