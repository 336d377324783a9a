"""What the stages stand on: the state and its reducers, the run's context and settings, the
model client with its transport and the embedded model, progress events and the files a run
leaves. Nothing here imports a stage."""
