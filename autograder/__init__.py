"""Tools of the tf.GradientTape course: notebook helpers, the build of the three editions, lint and class grading."""
