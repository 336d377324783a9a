"""The explorer's tools and what answers them: list_dir and read_file (files, reading
and its windows), read_image (images, pictures, OCR or a vision model), fit and derive
(fitting), make_figure (figures), finish_exploration (finish), and what the explorer is
shown of a folder before it asks (scanning, notes, references).
"""
