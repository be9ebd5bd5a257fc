#!/usr/bin/env bash
# Writes libFuzzer's seed corpus (Fuzz/corpus) from the committed one
# (Tests/FuzzTests/Corpus): each input prefixed by the byte of its kind, in
# the order of LatsimFuzz.FuzzKind (yaml 0, set 1, csv 2, xml 3, json 4,
# part 5, durations 6, outpath 7, answer 8, framestats 9, perfetto 10,
# summary 11).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus
for f in ../Tests/FuzzTests/Corpus/*; do
  case "${f##*.}" in
    yaml) k='\x00' ;; set) k='\x01' ;; csv) k='\x02' ;; xml) k='\x03' ;; json) k='\x04' ;;
    part) k='\x05' ;; durations) k='\x06' ;; outpath) k='\x07' ;; answer) k='\x08' ;;
    framestats) k='\x09' ;; perfetto) k='\x0a' ;; summary) k='\x0b' ;; *) continue ;;
  esac
  { printf "$k"; cat "$f"; } > "corpus/$(basename "$f")"
done
echo "seed corpus: $(ls corpus | wc -l) inputs in Fuzz/corpus"
