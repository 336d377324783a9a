"""The readers of lab formats: a file's tables, headers and settings, whatever the lab
wrote. tables.READERS is the one {suffix: reader} table; each reader is its field's library
(calamine, lvm-read, npTDMS, h5py, scipy.io, pandas for text) and keeps its bounds, and
every data file is decoded in a worker of its own (decoding). Headers as labs write them
(headings, header_rows, instruments) are read here, where the cells are.
"""
