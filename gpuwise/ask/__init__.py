"""The guided questionnaire (``gpuwise ask``): questions as data, answers saved as a requirements file."""
